package secret

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// needSeeds hold a match of each expression that has a need, in the
// spellings that test the need (the cases (?i) folds, Unicode's "ſ" and
// Kelvin "K" among them), and texts that hold none.
var needSeeds = []string{
	"aws_secret_access_key = " + awsSecret,
	"AWS_SECRET_ACCESS_KEY: " + awsSecret,
	"aws_ſecret_access_key = " + awsSecret, // ſ folds to s under (?i)
	"aws_secret_access_\u212aey = " + awsSecret,
	"SeCrEt_KeY=" + awsSecret,
	stripeLive, "rk_test_4eC39HqLyjWDarjtT1zdp7dc", "whsec_4eC39HqLyjWDarjtT1zdp7dcAbCd",
	"Authorization: Bearer abc123def456ghi789",
	"authorization: BEARER abc123def456ghi789", "bEaReR\tabc123def456ghi789xyz",
	"postgres://admin:S3cr3tPass@db.internal:5432/app", "x+y.z-w://u:p4ssw0rdXYZ@h",
	`password: "Tr0ub4dor#3"`, "api_key=Zx8Kq2Lp9Wm3Nb7V", "Token : abcdefgh12345",
	strings.Repeat("f", 1<<10), strings.Repeat(`{"id":12345,"name":"Lamp"},`, 20),
	"ſ \u212a é secret? no: secre t", "", "sk_live", "://", "bearer",
}

// FuzzNeedsChangeNoFinding: every finding Detect makes with the needs it
// makes with every expression searching the text, and no other. (go test
// runs the seeds; go test -fuzz=FuzzNeedsChangeNoFinding searches more.)
func FuzzNeedsChangeNoFinding(f *testing.F) {
	for _, s := range needSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := cmp.Diff(detect(s, false), detect(s, true)); diff != "" {
			t.Errorf("Detect(%q) with the needs (-without +with):\n%s", s, diff)
		}
		for _, p := range patterns() {
			if p.need != nil && p.re.MatchString(s) && !p.need(s) {
				t.Errorf("%s matches %q, whose need it fails", p.kind, s)
			}
		}
	})
}

// TestNeedFold: the need of a (?i) expression is met by every spelling
// the expression's folding matches, and by nothing else.
func TestNeedFold(t *testing.T) {
	for _, tt := range []struct {
		lit, s string
		want   bool
	}{
		{"secret", "SECRET", true},
		{"secret", "a SeCrEt b", true},
		{"secret", "ſecret", true},
		{"secret", "é ſEcReT", true},
		{"secret", "secre", false},
		{"secret", "secr et", false},
		{"secret", "é secre", false},
		{"bearer", "xBEARER", true},
		{"bearer", "é Bearer", true},
		{"bearer", "beare", false},
		{"key", "\u212aEY", true},
	} {
		if got := needFold(tt.lit)(tt.s); got != tt.want {
			t.Errorf("needFold(%q)(%q) = %v, want %v", tt.lit, tt.s, got, tt.want)
		}
		want := regexpFold(tt.lit, tt.s)
		if want != tt.want {
			t.Errorf("the table is wrong: (?i)%s on %q is %v", tt.lit, tt.s, want)
		}
	}
}

func regexpFold(lit, s string) bool {
	return regexp.MustCompile(`(?i)` + regexp.QuoteMeta(lit)).MatchString(s)
}
