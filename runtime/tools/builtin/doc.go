// Package builtin holds the tools that need no sandbox: todo_write,
// ask_user_question and a no-op tool for tests and benchmarks. Each tool
// lives in its own file with its description in an embedded .md beside it.
package builtin
