// Package server serves a key-value store over HTTP.
package server

import (
	"net/http"
	"sync"
)

const (
	DefaultPort = 8080
	maxKeyBytes = 256
)

var ErrMissing = errNotFound("missing")

// Store keeps values by key.
type Store interface {
	Get(key string) (string, error)
	Put(key, value string) error
}

type errNotFound string

func (e errNotFound) Error() string {
	return string(e)
}

// Server answers requests from a Store.
type Server struct {
	mu    sync.Mutex
	store Store
	hits  int
}

// New makes a server for store.
func New(store Store) *Server {
	return &Server{store: store}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
	value, err := s.store.Get(r.URL.Path)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Write([]byte(value))
}

func (s *Server) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

type Handler = http.Handler
