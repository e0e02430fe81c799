local e = redis.call('XRANGE', KEYS[4], ARGV[1], ARGV[1])
if #e == 0 then return 0 end
local f, out = e[1][2], {}
for i = 1, #f, 2 do
  local k = f[i]
  if k == 'attempts' then
    out[#out+1] = k; out[#out+1] = '0'
  elseif k ~= 'reason' and k ~= 'dead_at' then
    out[#out+1] = k; out[#out+1] = f[i+1]
  end
end
redis.call('XADD', KEYS[1], '*', unpack(out))
redis.call('XDEL', KEYS[4], ARGV[1])
if redis.call('HGET', KEYS[5], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[5], ARGV[2]) end
return 1
