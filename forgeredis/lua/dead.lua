set('attempts', ARGV[6])
set('reason', ARGV[7])
local t = redis.call('TIME')
set('dead_at', t[1] .. string.format('%06d', tonumber(t[2])))
local id = redis.call('XADD', KEYS[4], '*', unpack(f))
redis.call('HSET', KEYS[5], get('id') or ('entry:' .. ARGV[2]), id)
return 1
