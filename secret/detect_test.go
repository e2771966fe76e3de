package secret

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fake credentials of the right shapes. They are built from pieces so that
// secret scanners reading this repository do not take them for leaks.
var (
	openAIKey    = "sk-" + "proj-" + "Xq3vB9kLm2Tz8RwYp4Nc7Hd1Fg6Js5Ua0Ke"
	openAIOld    = "sk-" + "T3BlbkFJa9Zk2mQ7xW4vR8yN1pL6sD0fG3hJ5kC2bV7nM9qE"
	anthropicKey = "sk-" + "ant-api03-" + "Zk9Qm2Xw7Lp4Rt8Yv3Nb6Hc1Jd5Fg0Sa-Kq2Wm_Te4Ux9"
	awsKeyID     = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret    = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	githubToken  = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	githubPAT    = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
	slackToken   = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	googleKey    = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
	stripeLive   = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	stripePub    = "pk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	// A JWT whose header is {"alg":"HS256","typ":"JWT"}.
	jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." +
		"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" + "." +
		"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemKey = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi\nZ1BhFy3xqz8r0K0k\n-----END RSA PRIVATE KEY-----"
)

func kinds(fs []Finding) []Kind {
	var out []Kind
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	return out
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // the text of each finding, joined by "|"; "" for none
	}{
		// Positives, one or more per pattern.
		{"pem", "key:\n" + pemKey + "\nend", pemKey},
		{"pem truncated", "-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"},
		{"openai proj", "OPENAI_API_KEY=" + openAIKey + " ok", openAIKey},
		{"openai old", `"` + openAIOld + `"`, openAIOld},
		{"anthropic", "x-api-key: " + anthropicKey, anthropicKey},
		{"aws key id", "id " + awsKeyID + ".", awsKeyID},
		{"aws secret in context", "aws_secret_access_key = " + awsSecret, awsSecret},
		{"github classic", "token " + githubToken, githubToken},
		{"github fine-grained", githubPAT, githubPAT},
		{"slack", "SLACK=" + slackToken, slackToken},
		{"jwt", "Cookie: session=" + jwt + "; Path=/", jwt},
		{"google", "key=" + googleKey + "&q=x", googleKey},
		{"stripe secret", stripeLive, stripeLive},
		{"card plain", "card 4111111111111111 exp", "4111111111111111"},
		{"card spaced", "4242 4242 4242 4242", "4242 4242 4242 4242"},
		{"card dashed", "5555-5555-5555-4444!", "5555-5555-5555-4444"},
		{"amex", "3782 822463 10005", "3782 822463 10005"},
		{"card then cvv", "4111 1111 1111 1111 123", "4111 1111 1111 1111"},
		{"bearer", "Authorization: Bearer abc123def456ghi789", "abc123def456ghi789"},
		{"url password", "postgres://admin:S3cr3tPass@db.internal:5432/app", "S3cr3tPass"},
		{"assignment", `password: "Tr0ub4dor#3"`, "Tr0ub4dor#3"},
		{"opaque token", "session Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY expired", "Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY"},
		{"opaque in path", "/reset/Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY/confirm", "Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY"},
		{"opaque query value", "?sid=Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY&x=1", "Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY"},

		// Negatives: the false-positive traps.
		{"stripe publishable", "pk " + stripePub, ""},
		{"git sha", "commit 3f786850e387550fdab836ed7e6dc881de23001b", ""},
		{"sha256", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ""},
		{"uuid", "order 123e4567-e89b-12d3-a456-426614174000 placed", ""},
		{"data uri image", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", ""},
		{"long words", "antidisestablishmentarianism and incomprehensibilities", ""},
		{"camel case", "AbstractSingletonProxyFactoryBean2", ""},
		{"url path", "https://shop.example/products/category/running-shoes-2024/size-42", ""},
		{"url path with id", "https://shop.example/orders/8f14e45fceea167a5a36dedd4bea2543/items", ""},
		{"kebab slug", "sk-button-primary-large-variant", ""},
		{"order number", "Order #1234567890123 shipped", ""},
		{"long order number", "ref 41111111111111110000", ""},
		{"timestamp ms", "at 1700000000000", ""},
		{"phone", "call +44 20 7946 0958", ""},
		{"password prose", "password: required", ""},
		{"dotted names", "eyebrow.section.title-large", ""},
		{"email", "ann.marie.longname@example-company.co.uk", ""},
		{"version", "chromium-browser_124.0.6367.201-1ubuntu1", ""},
		// Names made of words with a short id among them (waymark test's
		// session names: test-RUNID-PLAN-NN-SCENARIO) are not tokens.
		{"session name", "session test-3f2a1b-shop-smoke-03-sign-in-with-a-saved-card closed", ""},
		{"session name short", "test-3f2a1b-checkout-plan-02-pay", ""},
		{"build name", "release_candidate-9f3e2d1c-linux-arm64-stripped", ""},
		// Random segments joined by dashes stay tokens.
		{"license key", "key A7fK93Lq-Zp0W8xYt-Qm2R5vNc-Hd4Js7Ua ok", "A7fK93Lq-Zp0W8xYt-Qm2R5vNc-Hd4Js7Ua"},
		{"token with one word", "reset-Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY", "reset-Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Detect(tt.in) {
				got = append(got, tt.in[f.Start:f.End])
			}
			if diff := cmp.Diff(tt.want, strings.Join(got, "|")); diff != "" {
				t.Errorf("Detect(%q) (-want +got):\n%s\nkinds: %v", tt.in, diff, kinds(Detect(tt.in)))
			}
		})
	}
}

func TestDetectKinds(t *testing.T) {
	tests := []struct {
		in   string
		want Kind
	}{
		{pemKey, KindPrivateKey},
		{openAIKey, KindOpenAI},
		{anthropicKey, KindAnthropic},
		{awsKeyID, KindAWSKeyID},
		{githubToken, KindGitHub},
		{slackToken, KindSlack},
		{jwt, KindJWT},
		{googleKey, KindGoogleAPI},
		{stripeLive, KindStripe},
		{"4111111111111111", KindCard},
		// "sk-" inside a word is not an OpenAI key (the fallback may still
		// take the random part for a token).
		{"task-Xq3vB9kLm2Tz8RwYp4Nc7Hd1Fg6Js5Ua0Ke", KindEntropy},
	}
	for _, tt := range tests {
		got := kinds(Detect(tt.in))
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("Detect(%.20q…) kinds = %v, want [%s]", tt.in, got, tt.want)
		}
	}
}

func TestLooksSecret(t *testing.T) {
	if !LooksSecret("my key is " + githubToken) {
		t.Error("a GitHub token does not look secret")
	}
	if LooksSecret("Add to cart") {
		t.Error(`"Add to cart" looks secret`)
	}
}

func TestRandomTokensAreFound(t *testing.T) {
	// Base62 tokens of 20 to 64 characters from a fixed generator: the
	// fallback should catch nearly all of them.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	x := uint64(88172645463325252)
	next := func() byte {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return alphabet[x%uint64(len(alphabet))]
	}
	missed := 0
	const n = 500
	for i := range n {
		b := make([]byte, 20+i%45)
		for j := range b {
			b[j] = next()
		}
		if !LooksSecret(string(b)) {
			missed++
		}
	}
	if missed > n/20 {
		t.Errorf("missed %d of %d random tokens", missed, n)
	}
}
