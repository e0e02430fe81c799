local group = ARGV[1]
local p = redis.call('XPENDING', KEYS[1], group, ARGV[2], ARGV[2], 1)
if #p == 0 then return 0 end
if p[1][2] ~= ARGV[3] or tonumber(p[1][4]) ~= tonumber(ARGV[4]) or tonumber(p[1][3]) >= tonumber(ARGV[5]) then return 0 end
local e = redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2])
if #e == 0 then return 0 end
local f = e[1][2]
local function set(name, value)
  for i = 1, #f, 2 do if f[i] == name then f[i+1] = value; return end end
  f[#f+1] = name; f[#f+1] = value
end
local function get(name)
  for i = 1, #f, 2 do if f[i] == name then return f[i+1] end end
  return nil
end
redis.call('XACK', KEYS[1], group, ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
