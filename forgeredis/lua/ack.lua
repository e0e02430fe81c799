local group = ARGV[1]
if redis.call('XACK', KEYS[1], group, ARGV[2]) == 0 then return 0 end
redis.call('XDEL', KEYS[1], ARGV[2])
return 1
