package main

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["claim"] = claimFlood; attacks["claim6"] = claim6 }

func mkAccount(ip, user, pw string) *C {
	c := client(ip)
	st, m, _ := c.Post("/api/me", map[string]any{"name": user})
	if st != 200 {
		fmt.Println("guest", st, m)
	}
	st, m, _ = c.Post("/api/account/claim", map[string]any{"username": user, "password": pw})
	if st != 200 {
		fmt.Println("claim", st, m)
	}
	return c
}

func timeSignins(c *C, user, pw string, n int, gap time.Duration, stop *atomic.Bool) []time.Duration {
	var ds []time.Duration
	for i := 0; i < n && (stop == nil || !stop.Load()); i++ {
		t := time.Now()
		st, m, _ := c.Post("/api/account/signin", map[string]any{"username": user, "password": pw})
		ds = append(ds, time.Since(t))
		if st != 200 {
			fmt.Println("signin", st, m)
		}
		time.Sleep(gap)
	}
	return ds
}

// claimFlood: args: mode (one|net) guests per-guest
func claimFlood(args []string) {
	mode := args[0]
	guests, _ := strconv.Atoi(args[1])
	per, _ := strconv.Atoi(args[2])
	user := "victim" + strconv.Itoa(int(time.Now().Unix()%100000))
	owner := mkAccount("127.20.0.1", user, "correct horse battery")
	rest := timeSignins(owner, user, "correct horse battery", 5, 100*time.Millisecond, nil)
	fmt.Printf("at rest: p50 %v max %v\n", pct(rest, .5), pct(rest, 1))
	var stop atomic.Bool
	var during []time.Duration
	done := make(chan bool)
	go func() {
		during = timeSignins(owner, user, "correct horse battery", 1000, 200*time.Millisecond, &stop)
		done <- true
	}()
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	t0 := time.Now()
	for g := 0; g < guests; g++ {
		a := ip(10, 0, 1)
		if mode == "net" {
			a = ip(10, 0, 1+g)
		}
		c := client(a)
		st, m, _ := c.Post("/api/me", map[string]any{"name": "g" + strconv.Itoa(g)})
		if st != 200 {
			mu.Lock()
			codes[st*1000]++
			mu.Unlock()
			_ = m
		}
		for i := 0; i < per; i++ {
			wg.Add(1)
			go func(g, i int) {
				defer wg.Done()
				st, _, _ := c.Post("/api/account/claim", map[string]any{"username": fmt.Sprintf("fl%d_%d_%d", time.Now().Unix()%10000, g, i), "password": "aaaaaaaaaaaa"})
				mu.Lock()
				codes[st]++
				mu.Unlock()
			}(g, i)
		}
	}
	wg.Wait()
	fl := time.Since(t0)
	time.Sleep(time.Second)
	stop.Store(true)
	<-done
	fmt.Printf("flood took %v, claim codes %v (guest-create failures as code*1000)\n", fl, codes)
	fmt.Printf("sign-ins during: n=%d p50 %v p99 %v max %v\n", len(during), pct(during, .5), pct(during, .99), pct(during, 1))
}

func claim6(args []string) {
	c := client("127.30.0.1")
	c.Post("/api/me", map[string]any{"name": "six"})
	var wg sync.WaitGroup
	res := make([]string, 6)
	stamp := time.Now().Unix() % 100000
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			st, m, _ := c.Post("/api/account/claim", map[string]any{"username": fmt.Sprintf("six%d_%d", stamp, i), "password": "aaaaaaaaaaaa"})
			res[i] = fmt.Sprint(st, " ", m["code"], " ", m["player"])
		}(i)
	}
	wg.Wait()
	for _, r := range res {
		fmt.Println(r)
	}
	_, me := c.Get("/api/me")
	fmt.Println("me:", string(me))
	// which of the six usernames resolve to whom? sign in to each with the password
	for i := 0; i < 6; i++ {
		d := client("127.30.0.2")
		st, m, _ := d.Post("/api/account/signin", map[string]any{"username": fmt.Sprintf("six%d_%d", stamp, i), "password": "aaaaaaaaaaaa"})
		fmt.Println("signin", i, st, m["code"], m["player"])
	}
}
