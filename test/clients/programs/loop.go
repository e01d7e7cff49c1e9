// A Go net/http client the audit suite runs: a retry loop around http.Client.
//
// Usage: loop MODE WORKERS URL KEY SESSION
//
//	MODE    good (sleeps Retry-After, doubling from it) | bad (retries after a fixed 50 ms)
//	WORKERS how many calls run at once, each in its own goroutine
//
// Prints the final status of each call, comma-separated.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func call(client *http.Client, mode, url, key, session string) int {
	status := 0
	for attempt := 0; attempt < 4; attempt++ {
		req, _ := http.NewRequest("GET", url+"/pets?limit=1", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("X-Mock-Session", session)
		res, err := client.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		status = res.StatusCode
		if status != http.StatusTooManyRequests {
			return status
		}
		wait := 50 * time.Millisecond
		if mode == "good" {
			seconds, err := strconv.Atoi(res.Header.Get("Retry-After"))
			if err != nil {
				seconds = 1
			}
			wait = time.Duration(seconds) * time.Second << attempt
		}
		time.Sleep(wait)
	}
	return status
}

func main() {
	mode, url, key, session := os.Args[1], os.Args[3], os.Args[4], os.Args[5]
	workers, _ := strconv.Atoi(os.Args[2])
	statuses := make([]string, workers)
	// Each worker has its own client, and the calls start together: a shared transport hands a
	// worker still dialling the connection another worker's 429 just came on, and a request
	// there is judged as a retry.
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
			<-start
			statuses[i] = strconv.Itoa(call(client, mode, url, key, session))
		}(i)
	}
	close(start)
	wg.Wait()
	fmt.Println(strings.Join(statuses, ","))
}
