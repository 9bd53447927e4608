package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
)

// command is one subcommand. Its run gets stdout and stderr so that tests
// can run commands in-process.
type command struct {
	name    string
	args    string // what follows the name in its usage line
	summary string // one line, for `tapis help`
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order `tapis help` shows them. A
// function rather than a variable: the commands' own help refers back to
// this list, which a package-level variable could not do.
func commands() []command {
	return []command{
		{"serve", "[flags]", "serve the web table and its API until interrupted", runServe},
		{"sim", "[flags]", "play many games between bots and report wins and scores per seat", runSim},
		{"train", "--game papayoo [flags]", "train a game's learned leaf evaluator by self-play and write its weights", runTrain},
		{"replay", "FILE|-", "play a scripted game (docs/replay.md) and print where it ends, as JSON", runReplay},
		{"check", "[flags]", "check a database: its integrity, and every table's moves replayed", runCheck},
		{"loadtest", "--url URL [flags]", "measure a running server: tables of clients playing random moves", runLoadtest},
	}
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return &c
		}
	}
	return nil
}

// usage writes the list of commands, a line each.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tapis COMMAND [flags]\n\ncommands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	fmt.Fprintf(tw, "  %s\t%s\n", "help", "this list, or a command's flags (tapis help COMMAND)")
	tw.Flush()
	fmt.Fprintln(w, "\n`tapis COMMAND -h` tells a command's flags.")
}

// runHelp is `tapis help [COMMAND]`: the list of commands, or one
// command's own help, on stdout.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stdout)
		return 0
	case len(args) > 1:
		fail(stderr, "help", "one command at a time")
		return 2
	}
	c := lookup(args[0])
	if c == nil {
		fail(stderr, "help", "unknown command %q", args[0])
		usage(stderr)
		return 2
	}
	return c.run([]string{"-h"}, stdout, stderr)
}

// flags makes a command's flag set. Its usage (the command's line, what
// it does and its flags) goes to stdout when asked for with -h and to
// stderr after a mistake; see parse.
func flags(name, about string) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	c := lookup(name)
	fl.Usage = func() {
		w := fl.Output()
		fmt.Fprintf(w, "usage: tapis %s %s\n\n%s\n", name, c.args, about)
		n := 0
		fl.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nflags:")
			fl.PrintDefaults()
		}
	}
	return fl
}

// parse parses a command's flags. It returns ok when the command is to
// go on, else the exit status: 0 after -h (the usage on stdout), 2 after
// a mistake (said on stderr with the one prefix, and where to read more).
func parse(fl *flag.FlagSet, args []string, stdout, stderr io.Writer) (status int, ok bool) {
	// The flag package would print the mistake and the usage itself, on
	// one writer for both; they are held back until the outcome says
	// where they belong.
	usage := fl.Usage
	fl.Usage = func() {}
	fl.SetOutput(io.Discard)
	err := fl.Parse(args)
	fl.Usage = usage
	fl.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fl.SetOutput(stdout)
		fl.Usage()
		fl.SetOutput(stderr)
		return 0, false
	case err != nil:
		fail(stderr, fl.Name(), "%v (tapis %s -h tells the flags)", err, fl.Name())
		return 2, false
	}
	return 0, true
}

// fail writes one error line, "tapis CMD: " and the message: the one
// prefix of every error the commands print, so the errors they print do
// not carry their package's name ("tapis sim: sim: ..." was said twice).
func fail(w io.Writer, cmd, format string, args ...any) {
	prefix := "tapis: "
	if cmd != "" {
		prefix = "tapis " + cmd + ": "
	}
	fmt.Fprintf(w, prefix+format+"\n", args...)
}
