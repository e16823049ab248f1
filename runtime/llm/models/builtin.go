package models

// The built-in table. Windows and limits are the providers' documented
// figures; prices are US dollars per million tokens as listed in 2026-08
// (DeepSeek: the off-peak rates in force from 2026-08-16, the figures
// issue #9 quotes for deepseek-v4-flash). Users correct any of it in
// models.yaml.
var builtin = []Model{
	deepseek("deepseek-v4-flash", 1<<20, 384<<10, true, Price{Input: 0.14, CacheHit: 0.014, Output: 0.28}, ""),
	deepseek("deepseek-v4-pro", 1<<20, 384<<10, true, Price{Input: 0.66, CacheHit: 0.022, Output: 1.98}, ""),
	// Retired on 2026-07-24: the API now answers 400 for these names.
	retired(deepseek("deepseek-chat", 128<<10, 8<<10, false, Price{Input: 0.14, CacheHit: 0.014, Output: 0.28},
		"deepseek-chat was retired by DeepSeek on 2026-07-24; use --model deepseek-v4-flash"), "2026-07-24"),
	retired(deepseek("deepseek-reasoner", 128<<10, 64<<10, true, Price{Input: 0.14, CacheHit: 0.014, Output: 0.28},
		"deepseek-reasoner was retired by DeepSeek on 2026-07-24; use --model deepseek-v4-flash (it thinks by default)"), "2026-07-24"),

	openai("gpt-4o", 128000, 16384, false, Price{Input: 2.50, CacheHit: 1.25, Output: 10}),
	openai("gpt-4o-mini", 128000, 16384, false, Price{Input: 0.15, CacheHit: 0.075, Output: 0.60}),
	openai("gpt-4.1", 1047576, 32768, false, Price{Input: 2, CacheHit: 0.50, Output: 8}),
	openai("gpt-4.1-mini", 1047576, 32768, false, Price{Input: 0.40, CacheHit: 0.10, Output: 1.60}),
	openai("gpt-4.1-nano", 1047576, 32768, false, Price{Input: 0.10, CacheHit: 0.025, Output: 0.40}),
	openai("o3", 200000, 100000, true, Price{Input: 2, CacheHit: 0.50, Output: 8}),
	openai("o3-mini", 200000, 100000, true, Price{Input: 1.10, CacheHit: 0.55, Output: 4.40}),
	openai("o4-mini", 200000, 100000, true, Price{Input: 1.10, CacheHit: 0.275, Output: 4.40}),
	openai("gpt-5", 400000, 128000, true, Price{Input: 1.25, CacheHit: 0.125, Output: 10}),
	openai("gpt-5-mini", 400000, 128000, true, Price{Input: 0.25, CacheHit: 0.025, Output: 2}),
	openai("gpt-5-nano", 400000, 128000, true, Price{Input: 0.05, CacheHit: 0.005, Output: 0.40}),

	{ID: "grok-3-mini", Provider: "xai", ContextWindow: 131072, Thinks: true, ReasoningField: ReasoningContent,
		Price: &Price{Input: 0.30, CacheHit: 0.075, Output: 0.50}},
	// Open models served by many hosts at many prices: window only.
	{ID: "llama-3.3-70b-versatile", Provider: "groq", ContextWindow: 131072, MaxOutput: 32768},
	{ID: "qwen/qwen3-32b", Provider: "groq", ContextWindow: 131072, MaxOutput: 40960, Thinks: true, ReasoningField: Reasoning},
	{ID: "mistral-small-latest", Provider: "mistral", ContextWindow: 131072, NoStreamOptions: true},
	{ID: "mistral-large-latest", Provider: "mistral", ContextWindow: 131072, NoStreamOptions: true},
}

func deepseek(id string, window, maxOut int, thinks bool, p Price, notice string) Model {
	return Model{ID: id, Provider: "deepseek", ContextWindow: window, MaxOutput: maxOut, Thinks: thinks,
		ReasoningField: ReasoningContent, Price: &p, Known: true, Notice: notice}
}

// retired marks m as withdrawn by its provider on date.
func retired(m Model, date string) Model {
	m.Retired = date
	return m
}

func openai(id string, window, maxOut int, thinks bool, p Price) Model {
	return Model{ID: id, Provider: "openai", ContextWindow: window, MaxOutput: maxOut, Thinks: thinks, Price: &p, Known: true}
}

// Builtin returns the built-in table alone (tests, and homes without a
// models.yaml).
func Builtin() *Table {
	t := &Table{models: make(map[string]Model, len(builtin))}
	for _, m := range builtin {
		m.Known = true
		t.models[m.ID] = m
	}
	return t
}
