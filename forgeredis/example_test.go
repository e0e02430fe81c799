package forgeredis_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgeredis"
	"github.com/redis/go-redis/v9"
)

// Every worker of a fleet builds its client like this; together they stay
// under the token's quota.
func Example() {
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()

	// Name the quota (one per token and instance), never with the token.
	pacer, err := forgeredis.NewPacer(rdb, "codeberg.org/ci-bot",
		forgeredis.WithPacerTimeout(200*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	client, err := forgejo.NewClient(
		forgejo.WithBaseURL("https://codeberg.org"),
		forgejo.WithToken("0123-placeholder-read-it-from-a-secret"),
		forgejo.WithPacer(pacer),
		// MaxWait bounds every wait; it must cover Codeberg's 10-minute window.
		forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 11 * time.Minute}),
	)
	if err != nil {
		log.Fatal(err)
	}
	_ = client // client.Issues.ListRepoIssues(ctx, ...) and so on
	fmt.Println("key:", pacer.Key())
	// Output: key: forgego:quota:codeberg.org/ci-bot
}

// A PacerFallback hook hears of every request paced locally because Redis
// was unreachable.
func ExampleNewPacer_hooks() {
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()
	pacer, err := forgeredis.NewPacer(rdb, "codeberg.org/ci-bot")
	if err != nil {
		log.Fatal(err)
	}
	_, err = forgejo.NewClient(
		forgejo.WithBaseURL("https://codeberg.org"),
		forgejo.WithPacer(pacer),
		forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 11 * time.Minute}),
		forgejo.WithHooks(forgejo.Hooks{
			PacerFallback: func(_ context.Context, call forgejo.CallContext, err error) {
				log.Printf("%s paced locally: %v", call.Operation, err)
			},
		}),
	)
	fmt.Println(err)
	// Output: <nil>
}
