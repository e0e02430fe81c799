local did = redis.call('HGET', KEYS[5], ARGV[1])
if did then
  local e = redis.call('XRANGE', KEYS[4], did, did)
  if #e > 0 then return {did, e[1][2]} end
  redis.call('HDEL', KEYS[5], ARGV[1])
end
if ARGV[2] == '1' then
  local e = redis.call('XRANGE', KEYS[4], ARGV[1], ARGV[1])
  if #e > 0 then return {ARGV[1], e[1][2]} end
end
return {}
