package natsstore

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// EnsureStream returns stream cfg.Name, making it with cfg if the server
// has none. An existing stream is used as it is: the process that made
// it chose its replicas and limits, and a client started with other
// flags must not change them under a running fleet.
func EnsureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	st, err := js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		st, err = js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.Stream(ctx, cfg.Name) // another process made it meanwhile
		}
	}
	if err != nil {
		return nil, serverError("make the stream "+cfg.Name, err)
	}
	return st, nil
}

// ensureKV is EnsureStream for a KV bucket.
func ensureKV(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, serverError("make the bucket "+cfg.Bucket, err)
	}
	return kv, nil
}
