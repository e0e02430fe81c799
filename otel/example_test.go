package forgejootel_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"codeberg.org/forgego/forgejo"
	forgejootel "codeberg.org/forgego/forgejo/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// ExampleNewHooks traces a call. A real program passes its own
// TracerProvider and MeterProvider, or none to use the global ones.
func ExampleNewHooks() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"version":"15.0.0"}`))
	}))
	defer srv.Close()

	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	hooks, err := forgejootel.NewHooks(forgejootel.WithTracerProvider(tp))
	if err != nil {
		log.Fatal(err)
	}
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithHooks(hooks))
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := client.Misc.GetVersion(context.Background()); err != nil {
		log.Fatal(err)
	}

	for _, s := range spans.Ended() {
		fmt.Println(s.Name(), s.SpanKind())
		for _, kv := range s.Attributes() {
			switch kv.Key {
			case "forgejo.operation", "forgejo.attempts", "http.response.status_code":
				fmt.Printf("  %s=%s\n", kv.Key, kv.Value.String())
			}
		}
	}
	// Output:
	// GET /version client
	//   forgejo.operation=getVersion
	//   http.response.status_code=200
	//   forgejo.attempts=1
}
