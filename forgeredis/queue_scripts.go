package forgeredis

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The Queue's scripts, in lua/. Keys: 1 stream, 2 delayed, 3 retry, 4
// dead, 5 deadidx. The scripts that touch the consumer group get its name
// (groupName) as ARGV 1, never a name of their own.

// enqueueScript checks the bound and adds the entry: ARGV 1 the capacity,
// then the entry's fields. Reply: {1 stored or 0 full, the count before}.
//
//go:embed lua/enqueue.lua
var enqueueLua string
var enqueueScript = redis.NewScript(enqueueLua)

// receiveScript is Receive's round: it moves the due retries into the
// stream (on Redis's clock), then takes over one expired lease
// (XAUTOCLAIM from the cursor, with its delivery count from XPENDING), or
// else reads one new entry (XREADGROUP, which does not block in a
// script). ARGV 1 group, 2 consumer, 3 visibility (ms), 4 XAUTOCLAIM
// cursor. Reply: {kind, cursor[, entry ID, fields, delivery count]} with
// the kinds of receivedNew and its siblings; {-1, error} without the
// group.
//
//go:embed lua/receive.lua
var receiveLua string
var receiveScript = redis.NewScript(receiveLua)

// leaseCheck is the start of Retry's and DeadLetter's scripts: ARGV 1
// group, 2 entry ID, 3 consumer, 4 delivery count, 5 visibility (ms). It
// leaves the entry's fields in f, or returns 0 (lease lost).
//
//go:embed lua/lease_check.lua
var leaseCheck string

// retryScript: the lease check's ARGV, 6 attempts so far, 7 delay (ms).
//
//go:embed lua/retry.lua
var retryLua string
var retryScript = redis.NewScript(leaseCheck + retryLua)

// deadScript: the lease check's ARGV, 6 attempts, 7 reason.
//
//go:embed lua/dead.lua
var deadLua string
var deadScript = redis.NewScript(leaseCheck + deadLua)

// extendScript: the lease check's ARGV; the entry's idle time starts again
// at 0 (XCLAIM to the same consumer; JUSTID leaves its delivery count).
//
//go:embed lua/extend.lua
var extendLua string
var extendScript = redis.NewScript(extendLua)

// ackScript: ARGV 1 group, 2 entry ID.
//
//go:embed lua/ack.lua
var ackLua string
var ackScript = redis.NewScript(ackLua)

// findDeadScript finds the dead letter Requeue is asked for: ARGV 1 the
// delivery ID (looked up in the index, whose entry is dropped when its
// dead letter is gone) or, when ARGV 2 is "1", a dead-letter entry ID.
// Reply: {entry ID, fields}, or {} when there is none.
//
//go:embed lua/find_dead.lua
var findDeadLua string
var findDeadScript = redis.NewScript(findDeadLua)

// requeueScript moves a dead letter back into the stream, attempts at 0:
// ARGV 1 its entry ID (read by findDeadScript; a stream entry never
// changes, so it is the entry that was read), 2 its delivery ID, whose
// index entry is dropped if it names this dead letter. 0 when it is gone
// (requeued meanwhile).
//
//go:embed lua/requeue.lua
var requeueLua string
var requeueScript = redis.NewScript(requeueLua)
