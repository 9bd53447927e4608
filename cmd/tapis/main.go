// Command tapis is the one binary of Tapis: it serves the web table, plays
// scripted games, simulates games between bots, checks a database and
// measures a running server under load.
//
//	tapis serve  [--addr :8080] [--db tapis.db|postgres://...] [--bot-delay 700ms] [--away 45s] [--metrics-addr 127.0.0.1:9090]
//	tapis sim    --game cabo --players 4 --bots heuristic,random,... --games N --seed S [--json]
//	tapis replay FILE|-
//	tapis check  [--db tapis.db|postgres://...]
//	tapis loadtest --url URL --game G --players P --tables N --think D --duration D [--bots LEVEL] [--json]
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command runs one subcommand; stdout and stderr are passed in so that
// tests can run commands in-process.
type command func(args []string, stdout, stderr io.Writer) int

func commands() map[string]command {
	return map[string]command{
		"check":    runCheck,
		"loadtest": runLoadtest,
		"replay":   runReplay,
		"serve":    runServe,
		"sim":      runSim,
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || cmds[args[0]] == nil {
		var names []string
		for name := range cmds {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "usage: tapis COMMAND [flags]\ncommands: %v\n", names)
		return 2
	}
	return cmds[args[0]](args[1:], stdout, stderr)
}
