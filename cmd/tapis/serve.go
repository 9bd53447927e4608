package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/email"
	"tapis/limit"
	"tapis/metrics"
	"tapis/push"
	"tapis/server"
	"tapis/store"
	"tapis/store/postgres"
	"tapis/store/sqlite"
)

// runServe is `tapis serve`: the web table, until SIGINT or SIGTERM.
func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flags("serve", `Serves the web table and its API on --addr until SIGINT or SIGTERM, keeping
games in --db; with --nats, as one node of a cluster.`)
	addr := fl.String("addr", ":8080", "address to listen on")
	db := fl.String("db", "tapis.db", `where games are kept: a SQLite database file, a PostgreSQL URL (postgres://user:password@host:port/database?sslmode=disable&search_path=schema), or ":memory:" (keeps nothing)`)
	botDelay := fl.Duration("bot-delay", 700*time.Millisecond, "pause before a bot moves")
	poll := fl.Bool("poll", true, "hold this node's WebSockets on an event loop rather than a goroutine each (less memory and CPU a move; see docs/performance.md); --poll=false reads each by a goroutine")
	away := fl.Duration("away", 45*time.Second, "how long a seat that must act may have nobody connected before a bot plays for it, until its player returns (0: never)")
	waiting := fl.Duration("waiting-ttl", 15*time.Minute, "how long a table waiting for players may go with nobody there before it expires")
	abandon := fl.Duration("abandon-after", 24*time.Hour, "how long an unfinished match may go with nobody there before it is closed as abandoned")
	metricsAddr := fl.String("metrics-addr", "", "address of the operators' pages, /metrics (Prometheus), /debug/pprof/ and /backup (a copy of a SQLite database), never served on --addr (empty: none); keep it private, e.g. 127.0.0.1:9090")
	searches := fl.Int("bot-searches", 0, "bot searches run at once, over all tables (0: one fewer than the cores, at least 1), so that bots never take every core from people's moves")
	proxies := fl.String("trusted-proxy", "", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For names the client (e.g. 127.0.0.1/32,10.0.0.0/8); the per-client limits then apply to that address")
	natsURL := fl.String("nats", "", "a NATS server's URL (nats://host:4222): this node joins the cluster of every node given the same NATS and --db, which must then be PostgreSQL (empty: a single node)")
	node := fl.String("node", "", "this node's id in the cluster, unique (empty: a random one)")
	leaseTTL := fl.Duration("lease-ttl", 5*time.Second, "in a cluster, how long a table's lease lasts unless its owner renews it: how long a table waits for a paused or cut-off owner")
	// Notifications by e-mail (issue 29).
	smtpURL := fl.String("smtp", "", "a mail server's URL, smtp://user:password@host:port (STARTTLS when offered) or smtps://…: notifications by e-mail, for the players who chose them and verified their address (empty: no e-mail); needs --mail-from and --site")
	mailFrom := fl.String("mail-from", "", "the address mails come from (Tapis <tapis@example.org>)")
	site := fl.String("site", "", "the site's public URL (https://tapis.example.org), the start of every link in a mail or a push; an https one also turns on notifications by Web Push, signed with a key made from the server's secret")
	if status, ok := parse(fl, args, stdout, stderr); !ok {
		return status
	}
	if fl.NArg() > 0 {
		fail(stderr, "serve", "unexpected %q: every setting is a flag (tapis serve -h)", fl.Arg(0))
		return 2
	}
	trusted, err := limit.ParseProxies(*proxies)
	if err != nil {
		fail(stderr, "serve", "--trusted-proxy: %v", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := server.Config{BotDelay: *botDelay, NoPoll: !*poll, AwayAfter: *away, Proxies: trusted, WaitingTTL: *waiting, AbandonAfter: *abandon,
		Thinkers: *searches, LeaseTTL: *leaseTTL}
	if *smtpURL != "" {
		u, err := email.ParseURL(*smtpURL)
		if err == nil && (*mailFrom == "" || *site == "") {
			err = errors.New("--smtp needs --mail-from and --site")
		}
		if err != nil {
			fail(stderr, "serve", "--smtp: %v", err)
			return 2
		}
		cfg.Mail = email.Config{SMTP: u, From: *mailFrom, Site: *site}
	}
	if strings.HasPrefix(*site, "https://") {
		cfg.Push = push.Config{Subscriber: *site, Site: *site}
	}
	if *botDelay == 0 {
		cfg.BotDelay = -1
	}
	if *away == 0 {
		cfg.AwayAfter = -1
	}
	if *natsURL != "" && !isPostgres(*db) {
		fail(stderr, "serve", "--nats needs a PostgreSQL --db, which every node of the cluster shares")
		return 2
	}
	if *natsURL != "" {
		if *node == "" {
			*node = cluster.NewID()
		}
		nc, err := nats.Connect(*natsURL, nats.Name("tapis "+*node), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
			nats.RetryOnFailedConnect(false))
		if err != nil {
			fail(stderr, "serve", "--nats %s: %v", *natsURL, err)
			return 1
		}
		defer nc.Close()
		cfg.Cluster = cluster.New(nc, *node)
	}
	// A table's memory is mostly its match's history, live until the
	// match ends, and the heap grows to twice what is live between two
	// collections at Go's default: collecting at half as much again
	// takes a fifth off the memory of a thousand tables (118 to 100 KB a
	// table) for no CPU a move one can measure (docs/performance.md,
	// "Sockets on an event loop"). GOGC, when set, decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	// On one CPU, Go runs one goroutine at a time: the sockets' event
	// loop, blocked in epoll_wait, and the collector's marking then each
	// hold the only P, and moves wait behind them (8,000 tables: a p99
	// of 146-156 ms). A second P lets the system interleave them within
	// its own time slices (p99 76 ms), at no CPU a move one can measure.
	// GOMAXPROCS, when set, decides.
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
	if err := serve(ctx, *addr, *metricsAddr, *db, cfg, stdout, stderr); err != nil {
		fail(stderr, "serve", "%v", err)
		return 1
	}
	return 0
}

// serve runs the web table with cfg, whose store and logger it makes, on
// addr, and its metrics and profiles on metricsAddr if it is not empty.
func serve(ctx context.Context, addr, metricsAddr, db string, cfg server.Config, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	// Port 0 picks a free port each time; any other address twice is a
	// mistake, said plainly rather than as a failure to listen.
	if _, port, _ := net.SplitHostPort(addr); metricsAddr == addr && port != "0" {
		return errors.New("--metrics-addr must differ from --addr: metrics and profiles are never public")
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	var mln net.Listener
	if metricsAddr != "" {
		if mln, err = net.Listen("tcp", metricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		defer mln.Close()
		cfg.Metrics = metrics.New()
	}
	// The server outlives ctx (the signal) until its HTTP side has shut
	// down, so that requests under way finish and every move read from a
	// WebSocket is still applied and saved.
	tctx, cancelTables := context.WithCancel(context.Background())
	defer cancelTables()
	cfg.Store, cfg.Logger = st, log
	if cfg.Cluster != nil {
		cfg.Leases, _ = st.(store.Leases)
	}
	srv, err := server.New(tctx, cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Tapis is serving on http://%s (database %s); Ctrl-C stops it\n", displayAddr(ln.Addr()), describeDB(db))
	if cfg.Cluster != nil {
		fmt.Fprintf(stdout, "Node %s of the cluster on NATS %s\n", cfg.Cluster.ID(), cfg.Cluster.Conn().ConnectedUrlRedacted())
	}
	hs := srv.HTTPServer()
	errc := make(chan error, 2)
	go func() { errc <- hs.Serve(ln) }()
	if mln != nil {
		fmt.Fprintf(stdout, "Metrics on http://%s/metrics, profiles on http://%s/debug/pprof/\n", displayAddr(mln.Addr()), displayAddr(mln.Addr()))
		if _, ok := st.(backuper); ok {
			fmt.Fprintf(stdout, "A copy of the database on http://%s/backup\n", displayAddr(mln.Addr()))
		}
		// No write timeout: a CPU profile or a trace takes as long as it
		// is asked to.
		ms := &http.Server{Handler: operatorPages(cfg.Metrics.Handler(), st, log), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		go func() { errc <- ms.Serve(mln) }()
		defer ms.Close()
	}
	select {
	case err := <-errc:
		cancelTables()
		srv.Wait()
		return err
	case <-ctx.Done():
	}
	log.Info("stopping")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(sctx)
	// Stopping the server closes its WebSockets, which Shutdown does not
	// track, after applying and saving every move already read from them.
	cancelTables()
	srv.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// isPostgres reports whether --db names a PostgreSQL database rather than
// a SQLite file (the schemes pgx accepts, in any case, as URL schemes go).
func isPostgres(db string) bool {
	l := strings.ToLower(db)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// openStore opens the store --db names.
func openStore(ctx context.Context, db string) (store.Store, error) {
	switch {
	case db == ":memory:":
		return store.NewMemory(), nil
	case isPostgres(db):
		// Connecting may hang on an address that drops packets: give up
		// after a while, unless the URL's connect_timeout says otherwise.
		octx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		s, err := postgres.Open(octx, db)
		if err != nil {
			return nil, fmt.Errorf("PostgreSQL database %s: %w", describeDB(db), err)
		}
		return s, nil
	default:
		s, err := sqlite.Open(db)
		if err != nil {
			return nil, fmt.Errorf("SQLite database %s: %w", db, err)
		}
		return s, nil
	}
}

// describeDB is --db as it may be printed: a PostgreSQL URL without its
// password, which may be in the user part or a password parameter.
func describeDB(db string) string {
	if !isPostgres(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		// Several hosts (h1:5432,h2:5432) do not parse as a URL; say
		// no more than the scheme rather than risk the password.
		return db[:strings.Index(db, "://")+3] + "…"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// displayAddr turns ":8080" into "localhost:8080" for the message.
func displayAddr(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", ta.Port)
	}
	return a.String()
}

// backuper is a store that copies itself while it serves (the SQLite
// store, whose file a running server keeps locked against other
// processes).
type backuper interface {
	Backup(ctx context.Context, path string) error
}

// operatorPages is the operators' address: the metrics and profiles, and
// GET /backup, a consistent copy of a SQLite database taken while the
// server runs (to keep, to `tapis check`, to open in the sqlite3 shell).
func operatorPages(metrics http.Handler, st store.Store, log *slog.Logger) http.Handler {
	b, ok := st.(backuper)
	if !ok {
		return metrics
	}
	mux := http.NewServeMux()
	mux.Handle("/", metrics)
	// One copy at a time: each is the whole database on disk.
	var one sync.Mutex
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		if !one.TryLock() {
			w.Header().Set("Retry-After", "10")
			http.Error(w, "a backup is being made: ask again once it is done", http.StatusTooManyRequests)
			return
		}
		defer one.Unlock()
		// The copy is made whole in a file first: one that failed
		// half-way must not pass for a database, so its status says so
		// before any byte, and the length is known.
		dir, err := os.MkdirTemp("", "tapis-backup-")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "tapis.db")
		if err := b.Backup(r.Context(), path); err != nil {
			log.Error("backup", "err", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		now := time.Now().UTC()
		w.Header().Set("Content-Type", "application/vnd.sqlite3")
		w.Header().Set("Content-Disposition", `attachment; filename="tapis-`+now.Format("20060102-150405")+`.db"`)
		http.ServeContent(w, r, "", now, f)
	})
	return mux
}
