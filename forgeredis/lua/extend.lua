local group = ARGV[1]
local p = redis.call('XPENDING', KEYS[1], group, ARGV[2], ARGV[2], 1)
if #p == 0 then return 0 end
if p[1][2] ~= ARGV[3] or tonumber(p[1][4]) ~= tonumber(ARGV[4]) or tonumber(p[1][3]) >= tonumber(ARGV[5]) then return 0 end
redis.call('XCLAIM', KEYS[1], group, ARGV[3], 0, ARGV[2], 'JUSTID')
return 1
