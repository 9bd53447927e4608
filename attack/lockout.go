package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

func init() { attacks["lock"] = lockFlush }

func cookie(c *C, name string) string {
	u, _ := http.NewRequest("GET", base, nil)
	for _, k := range c.H.Jar.Cookies(u.URL) {
		if k.Name == name {
			return k.Value
		}
	}
	return ""
}

// lockFlush: args: floodRequests
func lockFlush(args []string) {
	total, _ := strconv.Atoi(args[0])
	stamp := strconv.Itoa(int(time.Now().Unix() % 100000))
	user := "lk" + stamp
	owner := client(ip(170, 0, 1))
	owner.Post("/api/me", map[string]any{"name": "Owner"})
	guestSess := cookie(owner, "tapis_session")
	owner.Post("/api/account/claim", map[string]any{"username": user, "password": "owner password"})
	fmt.Println("claim changed session id:", guestSess != cookie(owner, "tapis_session"), "device cookie names:", len(owner.H.Jar.Cookies(mustURL())))
	guesses := func(tag string, from int) {
		codes := map[int]int{}
		for i := 0; i < 15; i++ {
			c := client(ip(171, from+i, 1))
			st, _, _ := c.Post("/api/account/signin", map[string]any{"username": user, "password": "guess" + strconv.Itoa(i)})
			codes[st]++
		}
		fmt.Println(tag, "15 wrong guesses from 15 /24s:", codes)
	}
	guesses("first", 0)
	o2 := client(ip(170, 0, 1))
	o2.H.Jar = owner.H.Jar
	st, m, _ := o2.Post("/api/account/signin", map[string]any{"username": user, "password": "owner password"})
	fmt.Println("owner with device cookie while locked:", st, m["code"])
	st, m, _ = client(ip(170, 9, 9)).Post("/api/account/signin", map[string]any{"username": user, "password": "owner password"})
	fmt.Println("owner on a new browser while locked:", st, m["code"])
	// flood distinct usernames from many addresses
	var mu sync.Mutex
	codes := map[int]int{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := 0; w < 64; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cs := map[string]*C{}
			for i := range jobs {
				a := ip(180+i%20, (i/20)%120, 1+(i/2400)%250)
				c := cs[a]
				if c == nil {
					c = client(a)
					c.H.Timeout = 2 * time.Second
					cs[a] = c
				}
				st, _, _ := c.Post("/api/account/signin", map[string]any{"username": "u" + stamp + "x" + strconv.Itoa(i), "password": "whatever1"})
				mu.Lock()
				codes[st]++
				mu.Unlock()
			}
		}(w)
	}
	for i := 0; i < total; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	fmt.Println("flood", total, "distinct usernames took", time.Since(t0), codes)
	guesses("after flood", 40)
}

func mustURL() *urlT { u, _ := http.NewRequest("GET", base, nil); return u.URL }

type urlT = url.URL
