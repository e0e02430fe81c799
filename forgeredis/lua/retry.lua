set('attempts', ARGV[6])
local delay = tonumber(ARGV[7])
if delay <= 0 then
  redis.call('XADD', KEYS[1], '*', unpack(f))
  return 1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[3], ARGV[2], cmsgpack.pack(f))
redis.call('ZADD', KEYS[2], now + delay, ARGV[2])
return 1
