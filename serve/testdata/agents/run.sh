#!/bin/bash
# Runs an agent CLI (claude or codex, from npm) against toolparse serve and
# a scripted backend whose model writes Hermes calls as text. The agent,
# the server and the backend run inside a network namespace with only the
# loopback interface (unshare -n): nothing reaches a vendor. Not part of
# CI (it downloads the agents); run it by hand, as root:
#
#	serve/testdata/agents/run.sh claude|codex
#
# It prints what the agent answered and the server's log lines. The
# agent's first turn runs "echo hello-from-toolparse" through its shell
# tool; the second says what it printed.
set -e
agent=$1
dir=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
(cd "$here/../../.." && go build -o "$dir/toolparse" ./cmd/toolparse)
(cd "$dir" && cp "$here/fakebackend.go" main.go && printf 'module fake\n\ngo 1.25\n' > go.mod && go build -o fakebackend .)
(cd "$dir" && npm install --silent --no-audit --no-fund @anthropic-ai/claude-code @openai/codex >/dev/null &&
	cd node_modules/@anthropic-ai/claude-code && node install.cjs >/dev/null)
mkdir -p "$dir/home/.codex" "$dir/work"
printf 'model = "gpt-5-codex"\nmodel_provider = "tp"\n[model_providers.tp]\nname = "toolparse"\nbase_url = "http://127.0.0.1:8080/v1"\nwire_api = "responses"\nenv_key = "TP_KEY"\n' > "$dir/home/.codex/config.toml"
export dir agent
unshare -n bash -c '
ip link set lo up
"$dir/fakebackend" 127.0.0.1:9001 "$dir/backend.log" &
"$dir/toolparse" serve --backend http://127.0.0.1:9001/v1 --syntax hermes --record "$dir/rec" 2>"$dir/serve.log" &
sleep 1
cd "$dir/work"
export HOME=$dir/home
case $agent in
claude)
	ANTHROPIC_BASE_URL=http://127.0.0.1:8080 ANTHROPIC_API_KEY=sk-test DISABLE_AUTOUPDATER=1 \
		timeout 120 "$dir/node_modules/.bin/claude" -p "Run a command that prints a greeting." --allowedTools Bash --model claude-sonnet-4-5 ;;
codex)
	TP_KEY=sk-test CODEX_HOME=$HOME/.codex timeout 120 "$dir/node_modules/.bin/codex" exec --skip-git-repo-check \
		--dangerously-bypass-approvals-and-sandbox "Run a command that prints a greeting." ;;
esac
cat "$dir/serve.log"
kill %1 %2
'
