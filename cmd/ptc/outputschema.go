package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/structured"
)

// schemaFlags are ptc run's --output-schema: the flag, the parsed schema,
// and what the turn's structured answer came to.
type schemaFlags struct {
	path   string
	schema *structured.Schema
	// result is the answer's JSON value; invalid the error when it was
	// still not valid after the retry.
	result  json.RawMessage
	invalid error
}

func (s *schemaFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.path, "output-schema", "", "make the final answer a JSON value valid against the JSON Schema in FILE (one retry with the validation error); --output json prints it as result")
}

// load reads and parses the schema file, when one was given.
func (s *schemaFlags) load(f *runFlags) error {
	if s.path == "" {
		return nil
	}
	switch {
	case f.agentic.goal != "":
		return errors.New("--output-schema cannot be combined with --goal: a goal's rounds have no single final answer")
	}
	file, err := os.Open(s.path)
	if err != nil {
		return fmt.Errorf("--output-schema: %w", err)
	}
	defer file.Close()
	doc, err := io.ReadAll(io.LimitReader(file, structured.MaxSchemaBytes+1))
	if err != nil {
		return fmt.Errorf("--output-schema: %w", err)
	}
	if s.schema, err = structured.Parse(doc); err != nil {
		return fmt.Errorf("--output-schema %s: %w", s.path, err)
	}
	return nil
}

// runPrompt runs the prompt's turn: structured when --output-schema was
// given (the result and any still-invalid answer are kept on s), else as
// a plain turn.
func runPrompt(ctx context.Context, a *app, f *runFlags, input string) (agent.Outcome, error) {
	s := &f.schema
	if s.schema == nil {
		return a.sess.Run(ctx, input)
	}
	res, result, err := a.sess.RunStructured(ctx, input, s.schema)
	var invalid *structured.Invalid
	if errors.As(err, &invalid) {
		s.invalid = fmt.Errorf("%w (after one retry)", err)
		res.Failure = s.invalid.Error()
		return res, nil
	}
	s.result = result
	return res, err
}
