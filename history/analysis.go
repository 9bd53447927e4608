package history

import (
	"context"
	"errors"
	"net/http"

	"tapis/api"
	"tapis/store"
)

// Analyses is where a finished match's analysis comes from (package
// analysis's Worker): Report returns the one kept, or queues the match
// and returns an error wrapping store.ErrNotFound.
type Analyses interface {
	Report(ctx context.Context, table string, no int) ([]byte, error)
}

// pendingRetry is the Retry-After of an analysis not ready yet, seconds.
const pendingRetry = "2"

// Analysis answers GET /api/tables/{id}/matches/{no}/analysis: the
// match's analysis (package analysis's Report) once it is computed, 202
// {"status":"pending"} while it is computed, and, as every history
// answer, 409 not_over while the match runs. The match is checked over
// (finishedFor) before the analysis is asked for, so that no request
// makes the server analyse a match still being played.
func (s *Service) Analysis(w http.ResponseWriter, r *http.Request) {
	rp := s.finishedFor(w, r, r.PathValue("no"))
	if rp == nil {
		return
	}
	s.release()
	if s.cfg.Analyses == nil {
		api.Error(w, http.StatusNotFound, api.CodeNotFound, "server: this server does not analyse matches")
		return
	}
	b, err := s.cfg.Analyses.Report(r.Context(), rp.sv.ID, rp.sv.Match.No)
	switch {
	case errors.Is(err, store.ErrNotFound):
		w.Header().Set("Retry-After", pendingRetry)
		api.Write(w, http.StatusAccepted, map[string]string{"status": "pending"})
		return
	case err != nil:
		s.log.Error("history: analysis", "table", rp.sv.ID, "match", rp.sv.Match.No, "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the analysis could not be read; try again")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}
