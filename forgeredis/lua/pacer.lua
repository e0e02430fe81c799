local key = KEYS[1]
local gran = tonumber(ARGV[2])
local tm = redis.call('TIME')
local now = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000)
local f = redis.call('HMGET', key, 'est', 'reset', 'q', 'w', 'ahead', 'infl', 'late', 'block', 'sent')
local est, reset, q, w = tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4])
local ahead = tonumber(f[5]) or 0
local infl = tonumber(f[6]) or 0
local late = tonumber(f[7]) or 0
local block = tonumber(f[8]) or 0
local sent = tonumber(f[9]) or 0

-- A window that has ended gives way to a fresh one. With the window known,
-- the next end is the old bound plus w windows (still an upper bound on a
-- fixed grid); the reservations handed out for it become its first
-- requests; requests still in flight, and those sent just before the old
-- bound, may land in it too and are charged to it.
if reset and now >= reset then
  local n = 1
  if w then
    n = math.floor((now - reset) / w) + 1
    reset = reset + n * w
  else
    reset = nil
  end
  local moving = 0
  if q and w then
    moving = math.min(math.max(ahead - (n - 1) * q, 0), q)
    ahead = math.max(ahead - n * q, 0)
  else
    ahead = 0
  end
  local carried = 0
  if n == 1 then
    carried = infl + late
  else
    infl = 0
  end
  infl = infl + moving
  sent = moving + carried
  if q then
    est = math.max(q - moving - carried, 0)
  else
    est = nil
  end
  late = 0
end

local result = 0
if ARGV[1] == 'r' then
  if block > now then result = block - now end
  if est and est <= 0 and reset then
    -- Spent: hand out a slot in a later window, in order.
    local at = reset
    if q and w then
      at = reset + math.floor(ahead / q) * w
      ahead = ahead + 1
    end
    if at - now > result then result = at - now end
  else
    -- Budget left, or nothing known to stop the request.
    if est then est = est - 1 end
    infl = infl + 1
    sent = sent + 1
    if reset and now >= reset - gran then late = late + 1 end
  end
else
  if infl > 0 then infl = infl - 1 end
  if ARGV[4] == '1' then
    local sq, sw = tonumber(ARGV[7]), tonumber(ARGV[8])
    if sq > 0 then q = sq end
    if sw > 0 then w = sw end
    local r = tonumber(ARGV[5])
    -- What the server says is left, less what may still be on its way.
    local left = math.max(r - infl, 0)
    if ARGV[6] ~= '' then
      local bound = now + tonumber(ARGV[6])
      if not reset then
        est, reset, ahead, late = left, bound, 0, 0
        sent = infl + 1 -- everything let through so far, this request included
      else
        -- Same window. While only our own requests spend the quota, the
        -- server never says less than the estimate (which already counts
        -- every request let through); when it does, someone else spends
        -- it too, and the estimate becomes what is left less all that is
        -- in flight. A snapshot of the next window has a later bound and
        -- more left: ignored.
        if not est or r < est then est = left end
        if bound < reset then reset = bound end
      end
      -- Charging every request in flight to the window counts twice those
      -- the server had already counted when it answered. When the server
      -- has counted no more than was charged to the window (only the fleet
      -- spends it), q - sent is the exact budget left, and the slots
      -- counted twice come back. Otherwise the estimate stays as it is.
      if q and est and (q - r) <= sent and q - sent > est then
        est = q - sent
      end
    elseif not est or r < est then
      est = left
    end
  end
  if tonumber(ARGV[3]) == 429 then
    est = 0
    local ra = tonumber(ARGV[9])
    if ra > 0 then
      if now + ra > block then block = now + ra end
      -- The window does not end before the server lets us back in.
      if not reset or reset < block then reset = block end
    end
  end
end

local function num(v) return string.format('%.0f', v) end
local set, del = {}, {}
local function put(name, v)
  if v == nil then
    table.insert(del, name)
  else
    table.insert(set, name)
    table.insert(set, num(v))
  end
end
put('est', est) put('reset', reset) put('q', q) put('w', w)
put('ahead', ahead) put('infl', infl) put('late', late) put('block', block) put('sent', sent)
if #del > 0 then redis.call('HDEL', key, unpack(del)) end
redis.call('HSET', key, unpack(set))
-- Forget the state some time after it stops mattering.
local horizon = math.max(reset or now, block, now) - now + 2 * (w or 0) + 60000
redis.call('PEXPIRE', key, num(math.min(horizon, 172800000)))
return result
