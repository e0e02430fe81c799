local n = redis.call('XLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2]) + redis.call('XLEN', KEYS[4])
if n >= tonumber(ARGV[1]) then return {0, n} end
redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
return {1, n}
