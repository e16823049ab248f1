package ptc

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/dop251/goja"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// emitter serialises events to the run's Sink (console lines come from the
// loop goroutine, dispatch events from call goroutines). A nil sink drops
// events. Emit errors are ignored: losing a progress event must not stop
// the program.
type emitter struct {
	mu   sync.Mutex
	sink tools.Sink
}

func (e *emitter) emit(typ string, data any) {
	if e == nil || e.sink == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = e.sink.Emit(typ, data)
}

// output collects console lines and the return value, counting bytes
// against the hard cap. It is used from the loop goroutine only.
type output struct {
	hard   int
	callID string
	em     *emitter
	halt   func(*Failure)

	logs      []string
	bytes     int
	truncated bool
	result    json.RawMessage
}

func newOutput(hard int, callID string, em *emitter, halt func(*Failure)) *output {
	return &output{hard: hard, callID: callID, em: em, halt: halt, logs: []string{}}
}

func (o *output) overCap(n int) bool {
	if o.bytes+n <= o.hard {
		o.bytes += n
		return false
	}
	o.truncated = true
	o.halt(&Failure{Kind: KindOutputLimit, Message: fmt.Sprintf(
		"the program printed or returned more than %d MiB; print summaries instead of raw data", o.hard>>20)})
	return true
}

// log records one console line and streams it as tool/ptc-log.
func (o *output) log(level, text string) {
	if o.truncated || o.overCap(len(text)+1) {
		return
	}
	o.logs = append(o.logs, text)
	o.em.emit(session.TypePtcLog, session.PtcLog{CallID: o.callID, Level: level, Text: text})
}

// setResult stores the JSON of the program's return value (nothing for
// undefined). A value JSON cannot express (a cycle, a BigInt) is kept as
// its inspected text.
func (o *output) setResult(h helpers, v goja.Value) error {
	var raw []byte
	s, err := h.serialize(goja.Undefined(), v)
	var ex *goja.Exception
	switch {
	case err == nil && goja.IsUndefined(s):
		return nil
	case err == nil:
		raw = []byte(s.String())
	case errors.As(err, &ex):
		text, err := h.inspect(goja.Undefined(), v)
		if err != nil {
			return err
		}
		raw, _ = json.Marshal(text.String())
	default:
		return err
	}
	if o.overCap(len(raw)) {
		return nil
	}
	o.result = raw
	return nil
}

func (o *output) lines() ([]string, bool) { return o.logs, o.truncated }
