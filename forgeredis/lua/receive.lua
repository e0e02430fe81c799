local group = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  local packed = redis.call('HGET', KEYS[3], id)
  if packed then
    redis.call('XADD', KEYS[1], '*', unpack(cmsgpack.unpack(packed)))
    redis.call('HDEL', KEYS[3], id)
  end
  redis.call('ZREM', KEYS[2], id)
end
local c = redis.pcall('XAUTOCLAIM', KEYS[1], group, ARGV[2], ARGV[3], ARGV[4], 'COUNT', 1)
if type(c) == 'table' and c.err then return {-1, c.err} end
local cursor = c[1]
local m = c[2][1]
if m then
  if not m[2] then
    -- deleted while leased (Redis 6.2 still lists it): nothing to run
    redis.call('XACK', KEYS[1], group, m[1])
    return {0, cursor}
  end
  local p = redis.call('XPENDING', KEYS[1], group, m[1], m[1], 1)
  return {2, cursor, m[1], m[2], p[1][4]}
end
local r = redis.call('XREADGROUP', 'GROUP', group, ARGV[2], 'COUNT', 1, 'STREAMS', KEYS[1], '>')
if r and r[1] and r[1][2][1] then
  local e = r[1][2][1]
  return {1, cursor, e[1], e[2], 1}
end
return {0, cursor}
