package demo

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strconv"
)

type productsData struct {
	Products []product
	Page     int
	Pages    []int
	Prev     int // 0 if none
	Next     int // 0 if none
}

func (s *Site) products(w http.ResponseWriter, r *http.Request) {
	pages := (len(catalog) + productsPerPage - 1) / productsPerPage
	n := 1
	if q := r.URL.Query().Get("page"); q != "" {
		var err error
		n, err = strconv.Atoi(q)
		if err != nil || n < 1 || n > pages {
			s.renderStatus(w, r, http.StatusNotFound, "There is no such page of products.")
			return
		}
	}
	d := productsData{Page: n, Products: catalog[(n-1)*productsPerPage : min(n*productsPerPage, len(catalog))]}
	for i := 1; i <= pages; i++ {
		d.Pages = append(d.Pages, i)
	}
	if n > 1 {
		d.Prev = n - 1
	}
	if n < pages {
		d.Next = n + 1
	}
	s.render(w, r, http.StatusOK, "products", "Products", d)
}

func (s *Site) product(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	p, ok := findProduct(id)
	if err != nil || !ok {
		s.renderStatus(w, r, http.StatusNotFound, "There is no such product.")
		return
	}
	s.render(w, r, http.StatusOK, "product", p.Name, p)
}

func (s *Site) cart(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "cart", "Your cart", nil)
}

// cartReply is the JSON answer of /api/cart.
type cartReply struct {
	Count      int        `json:"count"` // units, as in the badge "Cart (N)"
	Items      []CartItem `json:"items"`
	TotalCents int        `json:"total_cents"`
}

func replyOf(st SessionState) cartReply {
	return cartReply{Count: st.CartCount(), Items: st.Cart, TotalCents: total(st.Cart)}
}

func total(items []CartItem) int {
	t := 0
	for _, it := range items {
		t += it.Qty * it.PriceCents
	}
	return t
}

func (s *Site) apiCart(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, replyOf(s.state(w, r)))
}

// addRequest is the body of POST /api/cart. The same fields are accepted as
// form values ("id", "qty").
type addRequest struct {
	ID  int `json:"id"`
	Qty int `json:"qty"` // 0 means 1
}

func (s *Site) apiCartAdd(w http.ResponseWriter, r *http.Request) {
	var req addRequest
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/json" {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, jsonError{`body must be JSON like {"id": 3, "qty": 1}`})
			return
		}
	} else {
		req.ID, _ = strconv.Atoi(r.FormValue("id"))
		req.Qty, _ = strconv.Atoi(r.FormValue("qty"))
	}
	st, status, msg := s.addToCart(w, r, req)
	if status != http.StatusOK {
		writeJSON(w, status, jsonError{msg})
		return
	}
	writeJSON(w, http.StatusOK, replyOf(st))
}

// cartAddForm is the form fallback of the product page's "Add to cart"
// without JavaScript.
func (s *Site) cartAddForm(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PostFormValue("id"))
	qty, _ := strconv.Atoi(r.PostFormValue("qty"))
	if _, status, msg := s.addToCart(w, r, addRequest{ID: id, Qty: qty}); status != http.StatusOK {
		s.renderStatus(w, r, status, msg)
		return
	}
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

func (s *Site) addToCart(w http.ResponseWriter, r *http.Request, req addRequest) (SessionState, int, string) {
	p, ok := findProduct(req.ID)
	if !ok {
		return SessionState{}, http.StatusNotFound, "no product with that id; ids run from 1 to 24"
	}
	if req.Qty == 0 {
		req.Qty = 1
	}
	if req.Qty < 1 || req.Qty > 99 {
		return SessionState{}, http.StatusBadRequest, "quantity must be from 1 to 99"
	}
	st := s.update(s.sessionID(w, r), func(st *SessionState) {
		for i := range st.Cart {
			if st.Cart[i].ProductID == p.ID {
				st.Cart[i].Qty += req.Qty
				return
			}
		}
		st.Cart = append(st.Cart, CartItem{ProductID: p.ID, Name: p.Name, Qty: req.Qty, PriceCents: p.PriceCents})
	})
	return st, http.StatusOK, ""
}

func (s *Site) cartRemove(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PostFormValue("id"))
	s.update(s.sessionID(w, r), func(st *SessionState) {
		for i := range st.Cart {
			if st.Cart[i].ProductID == id {
				st.Cart = slices.Delete(st.Cart, i, i+1)
				return
			}
		}
	})
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

func (s *Site) apiState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.state(w, r))
}
