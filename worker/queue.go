package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
)

// The turn queue: a work-queue stream whose subject per pool is
// ptc.turns.<pool>. A message is taken by one worker of the pool at a
// time and removed when acknowledged.
const (
	TurnsStream  = "PTC_TURNS"
	turnsPrefix  = "ptc.turns."
	DefaultPool  = "default"
	consumerName = "ptc-workers-"
)

// Job is one queued turn: run Input in session Session. Settings and
// Override change the session's settings first, as flags given on
// resume do (harness.Options).
type Job struct {
	ID       string           `json:"id"`
	Session  string           `json:"session"`
	Input    string           `json:"input"`
	Settings session.Settings `json:"settings"`
	Override []session.Field  `json:"override,omitempty"`
}

// NewJobID is a random job id.
func NewJobID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "job-" + hex.EncodeToString(b[:])
}

var poolPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// CheckPool rejects a pool name that is not one subject token.
func CheckPool(pool string) error {
	if !poolPattern.MatchString(pool) {
		return fmt.Errorf("pool %q: use letters, digits, '-' or '_'", pool)
	}
	return nil
}

// Queue makes the turn queue on js's server if it is missing.
func Queue(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.Stream, error) {
	return natsstore.EnsureStream(ctx, js, jetstream.StreamConfig{
		Name:        TurnsStream,
		Description: "ptc turns waiting for a worker, ptc.turns.<pool>",
		Subjects:    []string{turnsPrefix + "*"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    max(1, replicas),
		Duplicates:  2 * time.Minute,
	})
}

// Enqueue puts job on pool's queue; its id makes a repeated enqueue
// (a retry after a lost acknowledgement) one job.
func Enqueue(ctx context.Context, js jetstream.JetStream, pool string, job Job) error {
	if err := CheckPool(pool); err != nil {
		return err
	}
	b, err := json.Marshal(job)
	if err != nil {
		return err
	}
	m := &nats.Msg{Subject: turnsPrefix + pool, Data: b, Header: nats.Header{}}
	if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(job.ID)); err != nil {
		return fmt.Errorf("queue the turn on pool %s: %w", pool, err)
	}
	return nil
}
