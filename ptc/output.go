package ptc

import (
	"fmt"
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// emitter serialises events to the run's Sink (console lines come from the
// host loop, dispatch events from call goroutines). A nil sink drops
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

// outputCap counts the bytes of console lines and the result against the
// hard cap. The engine stops the program at the first piece over it; the
// host counts the same way so that an engine that kept writing could not
// fill the host's memory.
type outputCap struct {
	hard     int
	bytes    int
	exceeded bool
}

// over adds n bytes and reports whether they no longer fit; once over, it
// stays over.
func (c *outputCap) over(n int) bool {
	if c.exceeded {
		return true
	}
	if c.bytes+n <= c.hard {
		c.bytes += n
		return false
	}
	c.exceeded = true
	return true
}

func outputLimit(hard int) *Failure {
	return &Failure{Kind: KindOutputLimit, Message: fmt.Sprintf(
		"the program printed or returned more than %d MiB; print summaries instead of raw data", hard>>20)}
}

// output collects the console lines the engine sends and streams each as
// tool/ptc-log. It is used from the host loop only.
type output struct {
	cap    outputCap
	callID string
	em     *emitter
	logs   []string
}

func newOutput(hard int, callID string, em *emitter) *output {
	return &output{cap: outputCap{hard: hard}, callID: callID, em: em, logs: []string{}}
}

func (o *output) log(level, text string) {
	if o.cap.over(len(text) + 1) {
		return
	}
	o.logs = append(o.logs, text)
	o.em.emit(session.TypePtcLog, session.PtcLog{CallID: o.callID, Level: level, Text: text})
}
