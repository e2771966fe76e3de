package modelhttp

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

// TestNotFoundIsTheConfiguration: a model server's 404 (a model name it
// does not serve, a wrong base URL) is the person's configuration, coded
// bad_config, never an internal error.
func TestNotFoundIsTheConfiguration(t *testing.T) {
	v := Vendor{Name: "the server at http://127.0.0.1:1/v1"}
	err := v.CallError(context.Background(), Outcome{Status: http.StatusNotFound, Body: []byte(`{"error":{"message":"model 'gpt-4o' not found"}}`)})
	var coded interface{ ErrorCode() string }
	if !errors.As(err, &coded) || coded.ErrorCode() != "bad_config" {
		t.Fatalf("404: %v has no bad_config code", err)
	}
	err = v.CallError(context.Background(), Outcome{Status: http.StatusBadRequest, Body: []byte(`bad`)})
	if errors.As(err, &coded) {
		t.Errorf("400 coded %q: a malformed request is ours, not the person's", coded.ErrorCode())
	}
}

func TestConfigErrorIsCoded(t *testing.T) {
	err := ConfigError("openai: no model named for the server")
	var coded interface{ ErrorCode() string }
	if !errors.As(err, &coded) || coded.ErrorCode() != "bad_config" || err.Error() != "openai: no model named for the server" {
		t.Fatalf("ConfigError: %v", err)
	}
}
