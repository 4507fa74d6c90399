package syntaxtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Config tunes [Check]. The zero value checks every 2-way split of inputs up
// to 4 KiB and every prefix of inputs up to 4 KiB, with 20 random chunkings.
type Config struct {
	Options       syntax.Options // the parser options under test (Mode is set by the checks)
	RandomSplits  int            // random chunkings to try (0 means 20)
	Seed          uint64         // seed for the random chunkings
	MaxExhaustive int            // inputs longer than this get sampled splits and prefixes (0 means 1024; 4096 when Full; 512 with go test -short)
	// CompleteAt, if set, reports cut points where the truncated input is,
	// by the syntax's own rules, complete: the truncation check skips them.
	// (In caret, a line that is exactly ^^^ at the end of the input closes a
	// block, since models often end their output there with no newline; a
	// cut just after the ^^^ of a longer body line cannot be told apart.)
	// Nil means the syntax's own (Syntax.CompleteAt).
	CompleteAt func(prefix []byte) bool
	// SmallBlock is the MaxBlock of a second pass: Check runs every check
	// but the round trip again with Options.MaxBlock set to it, so that the
	// limits are exercised at every chunking (blocks, text runs and
	// look-ahead past the limit must not depend on chunking either). 0 means
	// 64; a negative value, or an Options.MaxBlock already at most it, skips
	// the pass.
	SmallBlock int
}

func (c Config) smallBlock() int {
	if c.SmallBlock == 0 {
		return 64
	}
	return c.SmallBlock
}

func (c Config) randomSplits() int {
	switch {
	case c.RandomSplits > 0:
		return c.RandomSplits
	case short():
		return 5
	}
	return 20
}

func (c Config) maxExhaustive() int {
	switch {
	case c.MaxExhaustive > 0:
		return c.MaxExhaustive
	case short():
		return 512
	case !Full():
		return 1024
	}
	return 4096
}

// Full reports whether the longest variants of the checks are asked for:
// the environment variable TOOLPARSE_FULL is set, as CI sets it for one of
// its passes. Without it, an input longer than 1,024 bytes gets every
// 2-way split and cut up to that many, evenly spread (4,096 with it); the
// checks are the same.
func Full() bool { return os.Getenv("TOOLPARSE_FULL") != "" }

// short reports whether the kit runs in a test binary with -short: then an
// input longer than 512 bytes gets sampled splits and cuts (and 5 random
// chunkings, not 20), unless the Config says otherwise. CI's race pass runs
// so: it looks for data races, which more splits of one single-threaded
// parse do not find; the passes before it run every split.
func short() bool { return testing.Testing() && testing.Short() }

// Check parses input with s and verifies the invariants every syntax promises that hold
// for any input:
//
//   - the stream ends with exactly one End event, and no event follows it;
//   - chunking does not matter: 1-byte chunks, every 2-way split, random
//     splits and splits inside UTF-8 characters give exactly the events of
//     the whole input, spans and positions included;
//   - token mode gives the event-mode events once its Partial fragments are
//     removed, and each run's fragments, joined and trimmed, are its content;
//   - nothing is lost: every byte that is not white space lies in some
//     event's span, or in a stretch that, parsed on its own, gives no event
//     but End (markers around an empty block) and that the syntax says may
//     be silent (Syntax.Quiet, when it has one). Without Quiet, a parser
//     that drops the same text both in context and on its own is not caught
//     by this rule; golden cases are what pin down such content;
//   - spans lie within the input, and an Error's line and column agree with
//     its offset;
//   - a truncated call is never a call: every Call that a prefix of the input
//     gives is a Call of the whole input, at the same place;
//   - no argument object is dropped: a Call with no arguments whose source
//     holds one "arguments", "parameters", "args" or "input" member with an
//     object that is not empty is a failure;
//   - in token mode, every partial event has the span of the input it came
//     from (non-empty);
//   - a handler that calls Write or Close on its own parser gets
//     syntax.ErrReentrant, and the events do not change;
//   - round trip, for syntaxes with a renderer: rendering the events and
//     parsing the result gives the same events, errors removed and adjacent
//     text runs of one type joined (see package wire) — whenever the
//     renderer can carry them all ([RoundTrip] insists that it can).
//
// All but the round trip are checked again at a small MaxBlock (see
// [Config.SmallBlock]). Panics in the parser are caught and reported as
// errors. Check returns nil when every invariant holds, or an error listing
// what failed.
func Check(s syntax.Syntax, input []byte, cfg Config) error {
	err := check(s, input, cfg, true)
	if small := cfg.smallBlock(); err == nil && small > 0 && (cfg.Options.MaxBlock <= 0 || cfg.Options.MaxBlock > small) {
		cfg.Options.MaxBlock = small
		if err = check(s, input, cfg, false); err != nil {
			err = fmt.Errorf("with MaxBlock %d: %w", small, err)
		}
	}
	return err
}

func check(s syntax.Syntax, input []byte, cfg Config, roundTrip bool) (err error) {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s parser panicked: %v", s.Name, r)
		}
	}()
	if cfg.CompleteAt == nil {
		cfg.CompleteAt = s.CompleteAt
	}
	opts := cfg.Options
	opts.Mode = syntax.EventMode
	want := syntax.Parse(s, input, opts)

	checkShape(want, input, fail)
	checkNothingLost(s, want, input, opts, fail)
	checkArgsKept(want, input, fail)
	if s.Render != nil && roundTrip {
		checkRoundTrip(s, want, opts, fail)
	}

	compare := func(what string, chunks [][]byte) {
		got := syntax.ParseChunks(s, chunks, opts)
		if d := DiffEvents(want, got); d != "" {
			fail("%s: events differ from the whole input's (-whole +chunked):\n%s", what, d)
		}
	}
	compare("1-byte chunks", Split(input, 1))
	checkReentrant(s, input, opts, want, fail)
	n := len(input)
	step := 1
	if n > cfg.maxExhaustive() {
		step = n/cfg.maxExhaustive() + 1
	}
	for i := 1; i < n && len(errs) == 0; i += step {
		compare(fmt.Sprintf("split at %d", i), [][]byte{input[:i], input[i:]})
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x70617273))
	for i := 0; i < cfg.randomSplits() && len(errs) == 0; i++ {
		compare(fmt.Sprintf("random chunking %d", i), RandomChunks(input, rng))
	}
	if len(errs) == 0 {
		if chunks := utf8Splits(input); chunks != nil {
			compare("splits inside UTF-8 characters", chunks)
		}
	}

	// Token mode.
	topts := opts
	topts.Mode = syntax.TokenMode
	for _, chunks := range [][][]byte{{input}, Split(input, 1), RandomChunks(input, rng)} {
		if len(errs) > 0 {
			break
		}
		checkTokens(syntax.ParseChunks(s, chunks, topts), want, input, fail)
	}

	// Truncation: calls from a prefix are calls of the whole input.
	whole := map[string]bool{}
	for _, e := range want {
		if e.Type == syntax.Call {
			whole[callKey(e)] = true
		}
	}
	for k := 0; k < n && len(errs) == 0; k += step {
		if cfg.CompleteAt != nil && cfg.CompleteAt(input[:k]) {
			continue
		}
		for _, e := range syntax.Parse(s, input[:k], opts) {
			if e.Type == syntax.Call && !whole[callKey(e)] {
				fail("input cut at byte %d gives a call the whole input does not: %s", k, e)
				break
			}
		}
	}
	return errors.Join(errs...)
}

// checkReentrant parses input in 1-byte chunks with a handler that calls
// Write and Close on its own parser: both must return syntax.ErrReentrant and
// change nothing.
func checkReentrant(s syntax.Syntax, input []byte, opts syntax.Options, want []syntax.Event, fail func(string, ...any)) {
	var got []syntax.Event
	var p syntax.Parser
	refused, inside := true, false
	p = s.New(func(e syntax.Event) {
		got = append(got, e)
		if inside { // a parser that let the call through: do not recurse
			return
		}
		inside = true
		_, werr := p.Write([]byte("<"))
		cerr := p.Close()
		inside = false
		refused = refused && errors.Is(werr, syntax.ErrReentrant) && errors.Is(cerr, syntax.ErrReentrant)
	}, opts)
	for _, c := range Split(input, 1) {
		p.Write(c)
	}
	p.Close()
	if !refused {
		fail("a Write or Close from the parser's own handler did not return syntax.ErrReentrant")
	}
	if d := DiffEvents(want, got); d != "" {
		fail("calling Write and Close from the handler changed the events (-whole +reentrant):\n%s", d)
	}
}

// DiffEvents returns the difference between two event lists as cmp.Diff
// writes it (-want +got), or "" when they are equal. Equal lists — the
// common case, at every chunking the kit tries — are told apart without
// cmp's reflection, which cost most of the kit's time.
func DiffEvents(want, got []syntax.Event) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

func callKey(e syntax.Event) string {
	return fmt.Sprintf("%d:%d:%s:%s:%s", e.Span.Start, e.Span.End, e.Name, e.ID, e.Args)
}

// knownCodes are the error codes an error event may carry.
var knownCodes = map[syntax.Code]bool{
	syntax.CodeTruncated: true, syntax.CodeInvalidJSON: true, syntax.CodeMalformed: true, syntax.CodeOverLimit: true,
	syntax.CodeNotAllowed: true, syntax.CodeSchema: true, syntax.CodeUnsupported: true,
}

func checkShape(evs []syntax.Event, input []byte, fail func(string, ...any)) {
	ends := 0
	for i, e := range evs {
		if e.Type == syntax.End {
			ends++
			if i != len(evs)-1 {
				fail("event %d follows the end event: %s", i+1, evs[i+1])
			}
		}
		if e.Span.Start < 0 || e.Span.End < e.Span.Start || e.Span.End > int64(len(input)) {
			fail("event %s has span %v outside the input of %d bytes", e, e.Span, len(input))
		}
		if e.Type == syntax.Error {
			if !knownCodes[e.Code] {
				fail("error %s has no known code", e)
			}
			if e.Pos.Offset < 0 || e.Pos.Offset > int64(len(input)) {
				fail("error %s has offset outside the input", e)
				continue
			}
			if p := scan.Advance(syntax.Pos{Line: 1, Column: 1}, input[:e.Pos.Offset]); p != e.Pos {
				fail("error %s: offset %d is at %s, not %s", e, e.Pos.Offset, p, e.Pos)
			}
		}
		if e.Partial {
			fail("event-mode event is partial: %s", e)
		}
		if (e.Type == syntax.Think || e.Type == syntax.Respond) && len(e.Opaque) == 0 && string(jsonscan.TrimSpace([]byte(e.Content))) != e.Content {
			fail("%s content is not trimmed: %q", e.Type, e.Content)
		}
		if (e.Type == syntax.Think || e.Type == syntax.Respond) && e.Content == "" && len(e.Opaque) == 0 {
			fail("%s event with no content (and no opaque state)", e.Type)
		}
		if len(e.Opaque) > 0 && (jsonscan.Kind(e.Opaque) != '{' || !json.Valid(e.Opaque)) {
			fail("%s event: opaque is not a JSON object: %s", e.Type, e.Opaque)
		}
		if e.Type == syntax.Call && (len(e.Args) == 0 || e.Args[0] != '{') {
			fail("call %s: args is not a JSON object", e)
		}
		if line := syntax.AppendJSON(nil, e, true); !utf8.Valid(line) || !json.Valid(line) {
			fail("event %d written as JSON is not valid UTF-8 JSON: %q", i, line)
		}
	}
	if ends != 1 {
		fail("the stream has %d end events, not 1", ends)
	}
}

func checkNothingLost(s syntax.Syntax, evs []syntax.Event, input []byte, opts syntax.Options, fail func(string, ...any)) {
	// Spans may be long and overlap (a call spanning many documents): count
	// them with a difference array, in one pass.
	depth := make([]int, len(input)+1)
	for _, e := range evs {
		start, end := max(e.Span.Start, 0), min(e.Span.End, int64(len(input)))
		if start < end {
			depth[start]++
			depth[end]--
		}
	}
	covered := make([]bool, len(input)+1)
	for i, d := 0, 0; i < len(input); i++ {
		d += depth[i]
		covered[i] = d > 0
	}
	for i := 0; i < len(input); {
		if covered[i] {
			i++
			continue
		}
		j := i
		for j < len(input) && !covered[j] {
			j++
		}
		gap := input[i:j]
		if len(jsonscan.TrimSpace(gap)) > 0 {
			// Only the start of the stream is inside reasoning the prompt
			// opened: a gap further on is read as plain output.
			gapOpts := opts
			gapOpts.ThinkOpen = opts.ThinkOpen && i == 0
			alone := syntax.Parse(s, gap, gapOpts)
			if len(alone) != 1 || alone[0].Type != syntax.End || alone[0].Span.Len() != 0 {
				fail("bytes %d..%d (%q) are in no event's span, and parsed alone they give %v", i, j, clip(gap), alone)
			} else if s.Quiet != nil && !s.Quiet(gap) {
				fail("bytes %d..%d (%q) are in no event's span, and the syntax does not say they may be silent (Syntax.Quiet): a silent drop", i, j, clip(gap))
			}
		}
		i = j
	}
}

// checkRoundTrip renders the events in the syntax and parses the result: it
// must give the same events, errors removed and adjacent runs of a type
// joined (wire.Normalize). Error events are not rendered: no syntax writes
// them, and a renderer reports each one it is given.
func checkRoundTrip(s syntax.Syntax, evs []syntax.Event, opts syntax.Options, fail func(string, ...any)) {
	var buf bytes.Buffer
	if err := syntax.Render(s.Render(&buf, opts), withoutErrors(evs)); err != nil {
		if !errors.Is(err, wire.ErrCannotCarry) {
			fail("round trip: rendering: %v", err)
		}
		// Some events have no form in this syntax (respond text that holds
		// a delimiter, from a §call: whose JSON failed): the renderer said
		// so, and there is no round trip to check. Golden cases are held to
		// a full round trip by RoundTrip.
		return
	}
	back := syntax.Parse(s, buf.Bytes(), opts)
	if d := cmp.Diff(wire.NormalizePair(evs, back)); d != "" {
		fail("round trip: rendered as %q, the events come back different (-parsed +rendered and parsed again):\n%s", clip(buf.Bytes()), d)
	}
}

// withoutErrors returns evs without their error events.
func withoutErrors(evs []syntax.Event) []syntax.Event {
	out := make([]syntax.Event, 0, len(evs))
	for _, e := range evs {
		if e.Type != syntax.Error {
			out = append(out, e)
		}
	}
	return out
}

// WritesCalls reports whether s's renderer writes a call with no loss: false
// for a syntax with no call form (Kimi-VL's reasoning alone), whose
// renderer reports a call as not carried. Tests that need a syntax's call
// skip such syntaxes by it, not by name.
func WritesCalls(s syntax.Syntax) bool {
	if s.Render == nil {
		return false
	}
	evs := []syntax.Event{
		{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`)},
		{Type: syntax.Execute}, {Type: syntax.End},
	}
	var out bytes.Buffer
	return syntax.Render(s.Render(&out, syntax.Options{}), evs) == nil
}

// RoundTrip renders the events of input in s (errors aside) and parses them
// back; it fails if anything cannot be carried, or if the events differ
// (errors removed and adjacent text runs joined). Check only compares when
// everything could be carried; golden cases are held to RoundTrip. A
// syntax of several forms (its Variants) passes when one of them carries
// the events (a provider's opaque state goes back only in that provider's
// form); the error is its default form's otherwise.
func RoundTrip(s syntax.Syntax, input []byte, opts syntax.Options) error {
	if s.Render == nil {
		return nil
	}
	evs := syntax.Parse(s, input, opts)
	err := roundTrip(s, s.Render, evs, opts)
	for _, v := range s.Variants {
		if err == nil || v.Render == nil {
			break
		}
		if roundTrip(s, v.Render, evs, opts) == nil {
			return nil
		}
	}
	return err
}

func roundTrip(s syntax.Syntax, render func(io.Writer, syntax.Options) syntax.Renderer, evs []syntax.Event, opts syntax.Options) error {
	var buf bytes.Buffer
	var errs []error
	if err := syntax.Render(render(&buf, opts), withoutErrors(evs)); err != nil {
		errs = append(errs, fmt.Errorf("round trip: %w", err))
	}
	back := syntax.Parse(s, buf.Bytes(), opts)
	if d := cmp.Diff(wire.NormalizePair(evs, back)); d != "" {
		errs = append(errs, fmt.Errorf("round trip: rendered as %q, the events come back different:\n%s", clip(buf.Bytes()), d))
	}
	return errors.Join(errs...)
}

func checkTokens(tok, want []syntax.Event, input []byte, fail func(string, ...any)) {
	for _, e := range tok {
		sp := e.Span
		if e.Partial && (sp.Start < 0 || sp.End <= sp.Start || sp.End > int64(len(input))) {
			fail("token mode: partial event %s has span %v, not a stretch of the input's %d bytes", e, sp, len(input))
			break
		}
	}
	var whole []syntax.Event
	var frag strings.Builder
	var fragType syntax.Type
	type streamed struct {
		name     string
		deltas   map[string][]*strings.Builder // by param ("" for the JSON text); one per value of a repeated param
		reported bool                          // an error came after it started (it may be about this call)
	}
	var open []*streamed // calls whose partial events came, in order
	byIndex := map[int]*streamed{}
	for _, e := range tok {
		if e.Type == syntax.Call && e.Partial {
			if e.Delta == "" && e.Param == "" {
				c := &streamed{name: e.Name, deltas: map[string][]*strings.Builder{}}
				open = append(open, c)
				byIndex[e.Index] = c
				continue
			}
			c := byIndex[e.Index]
			if c == nil || c.name != e.Name {
				fail("token mode: argument delta %s before its call's first partial event", e)
				continue
			}
			items := c.deltas[e.Param]
			if e.Delta == "" || len(items) == 0 { // a parameter's value starts
				items = append(items, &strings.Builder{})
				c.deltas[e.Param] = items
			}
			last := items[len(items)-1]
			if splitsRune(last.String(), e.Delta) {
				fail("token mode: argument deltas %q and %q split a UTF-8 character", last.String(), e.Delta)
			}
			last.WriteString(e.Delta)
			continue
		}
		switch {
		case e.Type == syntax.Call:
			// Calls that streamed complete in order, but one that failed
			// (an error instead of its call) stays open. The call is the
			// oldest open one of its name whose deltas give its args and
			// that no error followed; else one whose deltas give its args;
			// else the oldest of its name that no error followed, whose
			// deltas are then wrong. A call that did not stream (its
			// arguments came whole) has no partial events: one whose name is
			// only that of calls an error followed (which failed) is such a
			// call.
			match, rank := -1, 0
			for i, c := range open {
				if c.name != e.Name {
					continue
				}
				r := 1
				if deltasMatch(c.deltas, e) {
					r = 2
					if !c.reported {
						r = 3
					}
				} else if c.reported {
					continue
				}
				if r > rank {
					match, rank = i, r
				}
			}
			if match >= 0 {
				c := open[match]
				open = append(open[:match], open[match+1:]...)
				checkDeltas(c.deltas, e, fail)
			}
		case e.Type == syntax.Error:
			for _, c := range open { // the error may say what became of a call that streamed
				c.reported = true
			}
		case e.Type == syntax.End:
			for _, c := range open {
				if !c.reported {
					fail("token mode: call %q streamed but was neither completed nor followed by an error", c.name)
				}
			}
		}
		if e.Partial {
			if fragType != "" && fragType != e.Type {
				fail("token mode: %s fragment while a %s run is open", e.Type, fragType)
			}
			if fragType == e.Type && splitsRune(frag.String(), e.Content) {
				fail("token mode: fragments %q and %q split a UTF-8 character", frag.String(), e.Content)
			}
			fragType = e.Type
			frag.WriteString(e.Content)
			continue
		}
		if fragType != "" {
			if e.Type != fragType || string(jsonscan.TrimSpace([]byte(frag.String()))) != string(jsonscan.TrimSpace([]byte(e.Content))) {
				fail("token mode: %s fragments %q are not followed by their run (got %s)", fragType, frag.String(), e)
			}
			fragType = ""
			frag.Reset()
		}
		whole = append(whole, e)
	}
	if d := DiffEvents(want, whole); d != "" {
		fail("token mode without fragments differs from event mode (-event +token):\n%s", d)
	}
}

// splitsRune reports whether a valid multi-byte character straddles the end
// of a and the start of b.
func splitsRune(a, b string) bool {
	for i := len(a) - 1; i >= 0 && i >= len(a)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(a[i]) {
			if utf8.FullRuneInString(a[i:]) {
				return false
			}
			r, size := utf8.DecodeRuneInString(a[i:] + b)
			return r != utf8.RuneError && size > len(a)-i
		}
	}
	return false
}

// deltasMatch reports whether a call's deltas give its args.
func deltasMatch(deltas map[string][]*strings.Builder, call syntax.Event) bool {
	ok := true
	checkDeltas(deltas, call, func(string, ...any) { ok = false })
	return ok
}

// checkDeltas checks that a call's argument deltas, joined, give its args:
// the whole JSON text, or each parameter's string value.
func checkDeltas(deltas map[string][]*strings.Builder, call syntax.Event, fail func(string, ...any)) {
	for param, items := range deltas {
		var joined []string
		for _, it := range items {
			s := it.String()
			if param != "" { // as its JSON string would carry it: invalid bytes become U+FFFD
				s, _ = jsonscan.Unquote(syntax.AppendQuote(nil, s))
			}
			joined = append(joined, s)
		}
		if param == "" {
			if strings.Join(joined, "") != string(call.Args) {
				fail("token mode: the argument deltas of %q join to %s, not its args %s", call.Name, strings.Join(joined, ""), call.Args)
			}
			continue
		}
		var want []string
		jsonscan.Members(call.Args, func(k string, v []byte) bool {
			if k != param {
				return true
			}
			if s, ok := jsonscan.Unquote(v); ok {
				want = []string{s}
			} else {
				jsonscan.Elements(v, func(e []byte, _ int) bool {
					s, _ := jsonscan.Unquote(e)
					want = append(want, s)
					return true
				})
			}
			return false
		})
		if strings.Join(want, "\x00") != strings.Join(joined, "\x00") || len(want) != len(joined) {
			fail("token mode: the deltas of %q's parameter %q join to %q, not its value %q", call.Name, param, joined, want)
		}
	}
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// Split cuts input into chunks of n bytes (the last may be shorter).
func Split(input []byte, n int) [][]byte {
	var chunks [][]byte
	for len(input) > n {
		chunks = append(chunks, input[:n])
		input = input[n:]
	}
	return append(chunks, input)
}

// RandomChunks cuts input at random places into chunks of 1 to 16 bytes.
func RandomChunks(input []byte, rng *rand.Rand) [][]byte {
	var chunks [][]byte
	for len(input) > 0 {
		k := min(1+rng.IntN(16), len(input))
		chunks = append(chunks, input[:k])
		input = input[k:]
	}
	return chunks
}

// utf8Splits cuts input after the first byte of every multi-byte character,
// or returns nil when there is none.
func utf8Splits(input []byte) [][]byte {
	var chunks [][]byte
	last := 0
	for i := 0; i < len(input); {
		r, size := utf8.DecodeRune(input[i:])
		if size > 1 && r != utf8.RuneError {
			chunks = append(chunks, input[last:i+1])
			last = i + 1
		}
		i += size
	}
	if chunks == nil {
		return nil
	}
	return append(chunks, input[last:])
}

// Garbage feeds s random and mutated inputs built from the seed corpus and
// checks that it never panics and always ends its stream with one End event.
// It returns the first failure.
func Garbage(s syntax.Syntax, corpus [][]byte, rounds int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x67617262))
	alphabet := []byte("<>/{}[]\":,\\ \n\tabcdeimnrsuxtk^-§|:0123456789é")
	for r := 0; r < rounds; r++ {
		var in []byte
		if len(corpus) > 0 && r%2 == 0 {
			in = mutate(bytes.Clone(corpus[rng.IntN(len(corpus))]), rng, alphabet)
		} else {
			in = make([]byte, rng.IntN(200))
			for i := range in {
				in[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		if err := noPanic(s, in, rng); err != nil {
			return err
		}
	}
	return nil
}

func mutate(in []byte, rng *rand.Rand, alphabet []byte) []byte {
	for k := 1 + rng.IntN(4); k > 0 && len(in) > 0; k-- {
		i := rng.IntN(len(in))
		switch rng.IntN(3) {
		case 0:
			in = append(in[:i], in[i+1:]...)
		case 1:
			in[i] = alphabet[rng.IntN(len(alphabet))]
		default:
			in = append(in[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, in[i:]...)...)
		}
	}
	return in
}

func noPanic(s syntax.Syntax, in []byte, rng *rand.Rand) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s parser panicked on %q: %v", s.Name, in, r)
		}
	}()
	for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
		evs := syntax.ParseChunks(s, RandomChunks(in, rng), syntax.Options{Mode: mode})
		if len(evs) == 0 || evs[len(evs)-1].Type != syntax.End {
			return fmt.Errorf("%s parser: stream of %q does not end with an end event", s.Name, in)
		}
	}
	return nil
}

// argsMember is a member that holds a call's arguments in the JSON call
// formats; fullArgs one whose object is not empty.
var (
	argsMember = regexp.MustCompile(`"(arguments|parameters|args|input)"\s*:`)
	fullArgs   = regexp.MustCompile(`"(arguments|parameters|args|input)"\s*:\s*\{\s*"`)
)

// checkArgsKept fails a call with no arguments whose source holds one
// argument object that is not empty: an object dropped for {} (a model that
// wrote "parameters" where its format says "arguments" once lost its
// arguments so). A source that holds several argument members (several
// calls share its span) is not judged.
func checkArgsKept(evs []syntax.Event, input []byte, fail func(string, ...any)) {
	for _, e := range evs {
		if e.Type != syntax.Call || e.Partial || string(e.ArgsJSON()) != "{}" ||
			e.Span.Start < 0 || e.Span.End > int64(len(input)) || e.Span.Start >= e.Span.End {
			continue
		}
		src := input[e.Span.Start:e.Span.End]
		if len(argsMember.FindAllIndex(src, 2)) == 1 && fullArgs.Match(src) {
			fail("call %s has no arguments, but its source holds an argument object that is not empty: dropped (%q)", e.Name, clip(src))
		}
	}
}
