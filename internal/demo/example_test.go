package demo_test

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"

	"github.com/waymark-dev/waymark/internal/demo"
)

// A test serves the site, drives it (here with a plain client; usually with a
// browser) and then asks the site what happened.
func Example() {
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	defer srv.Close()

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.PostForm(srv.URL+"/login", url.Values{
		"email":    {demo.DemoEmail},
		"password": {demo.DemoPassword},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()
	fmt.Println("landed on", res.Request.URL.Path)

	for _, sid := range site.Sessions() {
		st := site.Session(sid)
		fmt.Println("signed in:", st.SignedIn, st.Email)
	}
	// Output:
	// landed on /account
	// signed in: true ann@example.com
}
