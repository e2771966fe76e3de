package demo

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"strings"
	"time"
)

// countries are the choices of the checkout's Country select, in order.
var countries = []struct{ Code, Name string }{
	{"US", "United States"},
	{"GB", "United Kingdom"},
	{"DE", "Germany"},
	{"FR", "France"},
	{"JP", "Japan"},
}

// checkoutData fills the checkout form: the values posted (so a form with
// errors keeps them) and one message per field that failed.
type checkoutData struct {
	Order     Order
	Errors    map[string]string // by field name
	Countries []struct{ Code, Name string }
	MinDate   string // today, for the date input's min
}

func (s *Site) checkoutForm(w http.ResponseWriter, r *http.Request) {
	s.renderCheckout(w, r, http.StatusOK, Order{}, nil)
}

func (s *Site) renderCheckout(w http.ResponseWriter, r *http.Request, status int, o Order, errs map[string]string) {
	d := checkoutData{Order: o, Errors: errs, Countries: countries, MinDate: s.now().Format(time.DateOnly)}
	s.render(w, r, status, "checkout", "Checkout", d)
}

// maxUpload bounds a multipart body (checkout invoice, /upload files).
const maxUpload = 10 << 20

func (s *Site) checkout(w http.ResponseWriter, r *http.Request) {
	sid := s.sessionID(w, r)
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
	if err := r.ParseMultipartForm(1 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		s.renderStatus(w, r, http.StatusBadRequest, "The form could not be read: "+err.Error())
		return
	}
	if r.MultipartForm != nil {
		defer func() { _ = r.MultipartForm.RemoveAll() }()
	}
	f := r.Form
	o := Order{
		Name:         strings.TrimSpace(f.Get("name")),
		Email:        strings.TrimSpace(f.Get("email")),
		Password:     f.Get("password"),
		Country:      f.Get("country"),
		Shipping:     f.Get("shipping"),
		Terms:        f.Get("terms") != "",
		Newsletter:   f.Get("newsletter") != "",
		DeliveryDate: strings.TrimSpace(f.Get("delivery_date")),
		Notes:        f.Get("notes"),
	}
	errs := s.validate(o)
	if inv, err := attachment(r, "invoice"); err != nil {
		errs["invoice"] = "The invoice file could not be read; attach it again."
	} else {
		o.Invoice = inv
	}
	if len(errs) > 0 {
		o.Password = "" // a real form never echoes a password
		s.renderCheckout(w, r, http.StatusUnprocessableEntity, o, errs)
		return
	}

	o.Placed = s.now()
	s.update(sid, func(st *SessionState) {
		// update runs this with s.mu held, so the order number and
		// lastOrder may be touched here.
		o.Number = fmt.Sprintf("WM-%d", s.nextOrder)
		s.nextOrder++
		o.Items = st.Cart
		o.TotalCents = total(st.Cart)
		st.Cart = nil
		st.Orders = append(st.Orders, o)
		s.lastOrder = &o
	})
	s.log.Info("demo: order placed", "session", sid, "order", o.Number)
	http.Redirect(w, r, "/orders/"+o.Number, http.StatusSeeOther)
}

// validate returns one message per field that is wrong; the map is never nil.
func (s *Site) validate(o Order) map[string]string {
	errs := make(map[string]string)
	if o.Name == "" {
		errs["name"] = "Enter your full name."
	}
	if o.Email == "" {
		errs["email"] = "Enter your email address."
	} else if a, err := mail.ParseAddress(o.Email); err != nil || a.Address != o.Email {
		errs["email"] = "Enter an email address like ann@example.com."
	}
	if o.Password == "" {
		errs["password"] = "Enter a password for your account."
	} else if len(o.Password) < 8 {
		errs["password"] = "Use at least 8 characters for the password."
	}
	if !validCountry(o.Country) {
		errs["country"] = "Choose a country."
	}
	if o.Shipping != "standard" && o.Shipping != "express" {
		errs["shipping"] = "Choose a shipping method."
	}
	if !o.Terms {
		errs["terms"] = "You must accept the terms and conditions."
	}
	if o.DeliveryDate != "" {
		d, err := time.Parse(time.DateOnly, o.DeliveryDate)
		today := s.now().Format(time.DateOnly)
		if err != nil {
			errs["delivery_date"] = "Enter the delivery date as YYYY-MM-DD."
		} else if d.Format(time.DateOnly) < today {
			errs["delivery_date"] = "The delivery date cannot be in the past."
		}
	}
	return errs
}

func validCountry(code string) bool {
	for _, c := range countries {
		if c.Code == code {
			return true
		}
	}
	return false
}

// attachment reads the first file of a multipart field and describes it;
// no file gives the zero Attachment.
func attachment(r *http.Request, field string) (Attachment, error) {
	if r.MultipartForm == nil || len(r.MultipartForm.File[field]) == 0 {
		return Attachment{}, nil
	}
	all, err := attachments(r, field)
	if err != nil {
		return Attachment{}, err
	}
	return all[0], nil
}

// attachments reads every file of a multipart field. Files with an empty name
// (an input left empty) are skipped.
func attachments(r *http.Request, field string) ([]Attachment, error) {
	if r.MultipartForm == nil {
		return nil, nil
	}
	var out []Attachment
	for _, fh := range r.MultipartForm.File[field] {
		if fh.Filename == "" {
			continue
		}
		f, err := fh.Open()
		if err != nil {
			return nil, fmt.Errorf("open upload %q: %w", fh.Filename, err)
		}
		n, err := io.Copy(io.Discard, f)
		_ = f.Close()
		if err != nil {
			return nil, fmt.Errorf("read upload %q: %w", fh.Filename, err)
		}
		out = append(out, Attachment{Name: fh.Filename, Size: n, ContentType: fh.Header.Get("Content-Type")})
	}
	return out, nil
}

func (s *Site) order(w http.ResponseWriter, r *http.Request) {
	num := r.PathValue("number")
	for _, o := range s.state(w, r).Orders {
		if o.Number == num {
			s.render(w, r, http.StatusOK, "order", "Order "+num+" placed", o)
			return
		}
	}
	s.renderStatus(w, r, http.StatusNotFound, "There is no order "+num+" in this session.")
}
