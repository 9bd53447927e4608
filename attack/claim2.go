package main

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

func init() { attacks["claimsus"] = claimSustained }

// claimSustained: args: seconds nets. Floods claims from `nets` /24s
// (127.11.n.*), new guests on fresh addresses each round, for seconds;
// meanwhile 1 sign-in/s, each a different account from a different /24.
func claimSustained(args []string) {
	secs, _ := strconv.Atoi(args[0])
	nets, _ := strconv.Atoi(args[1])
	stamp := strconv.Itoa(int(time.Now().Unix() % 100000))
	n := secs + 5
	users := make([]string, n)
	for i := range users {
		users[i] = "v" + stamp + "_" + strconv.Itoa(i)
		mkAccount(ip(21, i, 1), users[i], "correct horse battery")
	}
	var rest []time.Duration
	for i := 0; i < 5; i++ {
		c := client(ip(22, 200+i, 1))
		t := time.Now()
		st, _, _ := c.Post("/api/account/signin", map[string]any{"username": users[i], "password": "correct horse battery"})
		rest = append(rest, time.Since(t))
		if st != 200 {
			fmt.Println("rest signin", st)
		}
	}
	fmt.Printf("at rest: p50 %v max %v\n", pct(rest, .5), pct(rest, 1))
	var mu sync.Mutex
	codes := map[string]int{}
	end := time.Now().Add(time.Duration(secs) * time.Second)
	var fw sync.WaitGroup
	for nn := 0; nn < nets; nn++ {
		fw.Add(1)
		go func(nn int) {
			defer fw.Done()
			host := 1
			for time.Now().Before(end) && host < 255 {
				var wg sync.WaitGroup
				for g := 0; g < 20 && host < 255; g++ {
					c := client(ip(11, nn, host))
					host++
					st, _, _ := c.Post("/api/me", map[string]any{"name": "g"})
					if st != 200 {
						mu.Lock()
						codes["guest"+strconv.Itoa(st)]++
						mu.Unlock()
						continue
					}
					for i := 0; i < 30; i++ {
						wg.Add(1)
						go func(i int) {
							defer wg.Done()
							st, _, _ := c.Post("/api/account/claim", map[string]any{"username": fmt.Sprintf("f%s%d_%d_%d", stamp, nn, host, i), "password": "aaaaaaaaaaaa"})
							mu.Lock()
							codes[strconv.Itoa(st)]++
							mu.Unlock()
						}(i)
					}
				}
				wg.Wait()
			}
		}(nn)
	}
	var during []time.Duration
	for i := 5; time.Now().Before(end) && i < n; i++ {
		c := client(ip(22, i, 1))
		t := time.Now()
		st, m, _ := c.Post("/api/account/signin", map[string]any{"username": users[i], "password": "correct horse battery"})
		during = append(during, time.Since(t))
		if st != 200 {
			fmt.Println("signin", st, m)
		}
		time.Sleep(time.Second)
	}
	fw.Wait()
	fmt.Printf("claims: %v\n", codes)
	fmt.Printf("sign-ins during (each other /24): n=%d p50 %v p99 %v max %v\n", len(during), pct(during, .5), pct(during, .99), pct(during, 1))
}
