package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// errTooMany: more subjects match than one multi-last get may return
// (1024 on the server).
var errTooMany = errors.New("too many subjects for one direct get")

// lastPerSubject calls fn with the last message of every subject of
// stream matching filter, in one batched direct get (no consumer). It
// returns errTooMany when the server refuses that many answers.
func lastPerSubject(ctx context.Context, nc *nats.Conn, stream, filter string, fn func(*nats.Msg)) error {
	inbox := nc.NewRespInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	req, _ := json.Marshal(struct {
		MultiLast []string `json:"multi_last"`
		Batch     int      `json:"batch"`
	}{[]string{filter}, 1024})
	if err := nc.PublishRequest("$JS.API.DIRECT.GET."+stream, inbox, req); err != nil {
		return err
	}
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return err
		}
		switch status := m.Header.Get("Status"); status {
		case "":
			fn(m)
		case "204", "404":
			return nil // the end, or nothing there
		case "413":
			return errTooMany
		default:
			return fmt.Errorf("direct get from %s: %s %s", stream, status, m.Header.Get("Description"))
		}
	}
}

// bucketValues calls fn with every live key of bucket and its value: one
// direct get when the bucket is small enough, else a watch over it.
func bucketValues(ctx context.Context, nc *nats.Conn, kv jetstream.KeyValue, bucket string, fn func(key string, v []byte)) error {
	prefix := "$KV." + bucket + "."
	err := lastPerSubject(ctx, nc, "KV_"+bucket, prefix+">", func(m *nats.Msg) {
		switch m.Header.Get("KV-Operation") {
		case "DEL", "PURGE":
			return
		}
		fn(strings.TrimPrefix(m.Header.Get("Nats-Subject"), prefix), m.Data)
	})
	if !errors.Is(err, errTooMany) {
		return err
	}
	return eachValue(ctx, kv, fn)
}
