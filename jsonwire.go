package forgejo

import (
	"encoding/json"
	"time"

	"codeberg.org/forgego/forgejo/internal/jsonwire"
)

// The generated decoders, lent to the module's other packages through
// internal/jsonwire (the webhook package decodes its events with them).

func init() { jsonwire.Object = decodeObject }

// decodeObject is jsonwire.Object.
func decodeObject(data []byte, field func(key []byte, null bool) (any, bool)) bool {
	d := newJDec(data, false)
	if d.peek() != '{' {
		d.end()
		return false
	}
	d.obj()
	for more := d.key1(); more; more = d.keyN() {
		dst, ok := field(d.key, d.peek() == 'n')
		if !ok {
			d.end()
			return false
		}
		if dst == nil {
			d.skip()
			continue
		}
		if !jdValue(d, dst) {
			d.end()
			return false
		}
	}
	return d.end()
}

// jdValue decodes one value into dst; false when dst is of a type the
// decoders do not cover.
func jdValue(d *jdec, dst any) bool {
	switch p := dst.(type) {
	case *string:
		d.str(p)
	case *int64:
		d.int64(p)
	case *bool:
		d.bool(p)
	case *time.Time:
		d.time(p)
	case *json.RawMessage:
		if raw := d.raw(); !d.bad {
			*p = append((*p)[:0], raw...)
		}
	default:
		return jdTop(d, dst)
	}
	return true
}
