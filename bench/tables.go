package bench

// This file generates the datasets that are flat tables: every record an
// object of primitives, written by TOON as one tabular array. Each row
// type declares its fields in sorted key order (see the package comment)
// and parses itself from a CSV record of its fields in that order.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/toonstream/toon"
)

// flatTable finishes a flat-table dataset: the kit of its row type, its
// key and its delimiter.
func flatTable[D, T any](name, about, key string, delim toon.Delimiter, doc *D, list func(*D) []T, fromCSV func(*T, *csvCells)) *Dataset {
	return &Dataset{Name: name, About: about, Key: key, Delim: delim, Typed: doc, flat: true,
		kit: recordKit[D, T]{list: list, fromCSV: fromCSV}}
}

// AnalyticsRow is a row of daily web-analytics figures.
type AnalyticsRow struct {
	AvgSeconds  float64 `json:"avg_seconds"`
	BounceRate  float64 `json:"bounce_rate"`
	Browser     string  `json:"browser"`
	Campaign    string  `json:"campaign"`
	Conversions int     `json:"conversions"`
	Country     string  `json:"country"`
	Date        string  `json:"date"`
	Device      string  `json:"device"`
	GoalRate    float64 `json:"goal_rate"`
	Hour        int     `json:"hour"`
	Landing     bool    `json:"landing"`
	Medium      string  `json:"medium"`
	NewUsers    int     `json:"new_users"`
	OS          string  `json:"os"`
	Page        string  `json:"page"`
	Pageviews   int     `json:"pageviews"`
	Referrer    string  `json:"referrer"`
	Revenue     float64 `json:"revenue"`
	Sessions    int     `json:"sessions"`
	Users       int     `json:"users"`
}

// AnalyticsDoc is the analytics dataset.
type AnalyticsDoc struct {
	Rows []AnalyticsRow `json:"rows"`
}

func (r *AnalyticsRow) fromCSV(c *csvCells) {
	r.AvgSeconds, r.BounceRate, r.Browser, r.Campaign = c.float(), c.float(), c.str(), c.str()
	r.Conversions, r.Country, r.Date, r.Device = c.int(), c.str(), c.str(), c.str()
	r.GoalRate, r.Hour, r.Landing, r.Medium = c.float(), c.int(), c.bool(), c.str()
	r.NewUsers, r.OS, r.Page, r.Pageviews = c.int(), c.str(), c.str(), c.int()
	r.Referrer, r.Revenue, r.Sessions, r.Users = c.str(), c.float(), c.int(), c.int()
}

// analytics is a wide table of daily web-analytics rows: 20 columns of
// dates, dimensions, counts and rates.
func analytics(n int) *Dataset {
	g := newGen(1)
	pages := []string{"/", "/pricing", "/docs", "/docs/getting-started", "/blog", "/blog/release-notes", "/signup", "/login", "/features", "/about", "/careers", "/contact"}
	referrers := []string{"google.com", "github.com", "news.ycombinator.com", "reddit.com", "twitter.com", "direct", "bing.com", "duckduckgo.com", "linkedin.com"}
	devices := []string{"desktop", "mobile", "tablet"}
	browsers := []string{"Chrome", "Safari", "Firefox", "Edge", "Samsung Internet", "Opera"}
	oses := []string{"Windows", "macOS", "iOS", "Android", "Linux", "ChromeOS"}
	campaigns := []string{"spring_launch", "newsletter_42", "retargeting", "brand", "none", "webinar_q3"}
	mediums := []string{"organic", "cpc", "email", "social", "referral", "none"}
	rows := make([]AnalyticsRow, n)
	for i := range rows {
		sessions := 1 + g.r.Intn(5000)
		users := 1 + g.r.Intn(sessions)
		rows[i] = AnalyticsRow{
			Date:        epoch.AddDate(0, 0, i/50).Format(time.DateOnly),
			Hour:        g.r.Intn(24),
			Page:        g.pick(pages),
			Referrer:    g.pick(referrers),
			Country:     g.pick(countries),
			Device:      g.pick(devices),
			Browser:     g.pick(browsers),
			OS:          g.pick(oses),
			Sessions:    sessions,
			Users:       users,
			NewUsers:    g.r.Intn(users + 1),
			Pageviews:   sessions + g.r.Intn(3*sessions),
			BounceRate:  g.ratio(),
			AvgSeconds:  float64(g.r.Intn(60000)) / 100,
			Conversions: g.r.Intn(50),
			Revenue:     g.money(20000),
			Campaign:    g.pick(campaigns),
			Medium:      g.pick(mediums),
			Landing:     g.r.Intn(2) == 0,
			GoalRate:    g.ratio(),
		}
	}
	return flatTable("analytics", "wide web-analytics table: 20 columns of dates, dimensions, counts and rates", "rows", 0,
		&AnalyticsDoc{rows}, func(d *AnalyticsDoc) []AnalyticsRow { return d.Rows }, (*AnalyticsRow).fromCSV)
}

// Repo is a GitHub repository record.
type Repo struct {
	Archived      bool      `json:"archived"`
	CreatedAt     time.Time `json:"created_at"`
	DefaultBranch string    `json:"default_branch"`
	Description   string    `json:"description"`
	Fork          bool      `json:"fork"`
	Forks         int       `json:"forks"`
	FullName      string    `json:"full_name"`
	Homepage      string    `json:"homepage"`
	ID            int64     `json:"id"`
	Language      string    `json:"language"`
	License       string    `json:"license"`
	Name          string    `json:"name"`
	OpenIssues    int       `json:"open_issues"`
	PushedAt      time.Time `json:"pushed_at"`
	SizeKB        int       `json:"size_kb"`
	Stars         int       `json:"stars"`
	UpdatedAt     time.Time `json:"updated_at"`
	Watchers      int       `json:"watchers"`
}

// ReposDoc is the repos dataset.
type ReposDoc struct {
	Repositories []Repo `json:"repositories"`
}

func (r *Repo) fromCSV(c *csvCells) {
	r.Archived, r.CreatedAt, r.DefaultBranch, r.Description = c.bool(), c.time(), c.str(), c.str()
	r.Fork, r.Forks, r.FullName, r.Homepage = c.bool(), c.int(), c.str(), c.str()
	r.ID, r.Language, r.License, r.Name = c.int64(), c.str(), c.str(), c.str()
	r.OpenIssues, r.PushedAt, r.SizeKB, r.Stars = c.int(), c.time(), c.int(), c.int()
	r.UpdatedAt, r.Watchers = c.time(), c.int()
}

// repos is a table of GitHub repository records with long descriptions
// (commas and quotes, so quoted in TOON), timestamps and URLs.
func repos(n int) *Dataset {
	g := newGen(2)
	langs := []string{"Go", "Rust", "TypeScript", "Python", "C++", "Java", "Kotlin", "Swift", "Zig", "C"}
	licenses := []string{"MIT", "Apache-2.0", "BSD-3-Clause", "GPL-3.0", "MPL-2.0", "none"}
	rows := make([]Repo, n)
	for i := range rows {
		owner := strings.ToLower(g.pick(first) + g.pick(last))
		name := g.pick(words) + "-" + g.pick(words)
		rows[i] = Repo{
			ID:            int64(10_000_000 + i*37),
			Name:          name,
			FullName:      owner + "/" + name,
			Description:   g.sentence(12 + g.r.Intn(25)),
			Language:      g.pick(langs),
			Stars:         g.r.Intn(90000),
			Forks:         g.r.Intn(9000),
			OpenIssues:    g.r.Intn(700),
			Watchers:      g.r.Intn(3000),
			License:       g.pick(licenses),
			Archived:      g.r.Intn(10) == 0,
			Fork:          g.r.Intn(5) == 0,
			DefaultBranch: []string{"main", "master", "develop"}[g.r.Intn(3)],
			CreatedAt:     g.instant(),
			UpdatedAt:     g.instant(),
			PushedAt:      g.instant(),
			Homepage:      "https://" + owner + ".github.io/" + name,
			SizeKB:        g.r.Intn(500000),
		}
	}
	return flatTable("repos", "GitHub repository records: long quoted descriptions, timestamps (time.Time), URLs", "repositories", 0,
		&ReposDoc{rows}, func(d *ReposDoc) []Repo { return d.Repositories }, (*Repo).fromCSV)
}

// Article is a knowledge-base article; most optional fields are empty.
type Article struct {
	Author       string  `json:"author"`
	Category     string  `json:"category"`
	DeprecatedBy string  `json:"deprecated_by"`
	Helpful      float64 `json:"helpful"`
	ID           string  `json:"id"`
	Notes        string  `json:"notes"`
	Product      string  `json:"product"`
	Related      string  `json:"related"`
	Reviewer     string  `json:"reviewer"`
	Subcategory  string  `json:"subcategory"`
	Summary      string  `json:"summary"`
	Tags         string  `json:"tags"`
	Title        string  `json:"title"`
	Updated      string  `json:"updated"`
	Version      string  `json:"version"`
	Views        int     `json:"views"`
}

// KBDoc is the kb dataset.
type KBDoc struct {
	Articles []Article `json:"articles"`
}

func (r *Article) fromCSV(c *csvCells) {
	r.Author, r.Category, r.DeprecatedBy, r.Helpful = c.str(), c.str(), c.str(), c.float()
	r.ID, r.Notes, r.Product, r.Related = c.str(), c.str(), c.str(), c.str()
	r.Reviewer, r.Subcategory, r.Summary, r.Tags = c.str(), c.str(), c.str(), c.str()
	r.Title, r.Updated, r.Version, r.Views = c.str(), c.str(), c.str(), c.int()
}

// knowledgeBase is a pipe-delimited table of knowledge-base articles in
// which most optional columns are empty strings.
func knowledgeBase(n int) *Dataset {
	g := newGen(4)
	categories := []string{"Billing", "Accounts", "Networking", "Storage", "Security", "API", "Integrations"}
	maybe := func(p int, f func() string) string {
		if g.r.Intn(100) < p {
			return f()
		}
		return ""
	}
	rows := make([]Article, n)
	for i := range rows {
		rows[i] = Article{
			ID:           fmt.Sprintf("KB%06d", i+1),
			Title:        g.sentence(4 + g.r.Intn(6)),
			Category:     g.pick(categories),
			Subcategory:  maybe(40, func() string { return g.pick(words) }),
			Tags:         maybe(30, func() string { return g.pick(words) + ", " + g.pick(words) }),
			Author:       g.pick(first) + " " + g.pick(last),
			Reviewer:     maybe(20, func() string { return g.pick(first) + " " + g.pick(last) }),
			Summary:      maybe(35, func() string { return g.sentence(10 + g.r.Intn(10)) }),
			Related:      maybe(15, func() string { return fmt.Sprintf("KB%06d", 1+g.r.Intn(n)) }),
			DeprecatedBy: maybe(5, func() string { return fmt.Sprintf("KB%06d", 1+g.r.Intn(n)) }),
			Notes:        maybe(10, func() string { return g.sentence(6) }),
			Product:      maybe(50, func() string { return g.pick(words) }),
			Version:      maybe(25, func() string { return fmt.Sprintf("v%d.%d", 1+g.r.Intn(5), g.r.Intn(20)) }),
			Views:        g.r.Intn(100000),
			Helpful:      g.ratio(),
			Updated:      epoch.AddDate(0, 0, g.r.Intn(700)).Format(time.DateOnly),
		}
	}
	return flatTable("kb", "knowledge-base table, pipe-delimited, most optional cells empty strings", "articles", toon.Pipe,
		&KBDoc{rows}, func(d *KBDoc) []Article { return d.Articles }, (*Article).fromCSV)
}

// Message is a customer message in one of many languages.
type Message struct {
	City    string `json:"city"`
	Country string `json:"country"`
	ID      int    `json:"id"`
	Lang    string `json:"lang"`
	Message string `json:"message"`
	Name    string `json:"name"`
	Rating  int    `json:"rating"`
}

// IntlDoc is the intl dataset.
type IntlDoc struct {
	Messages []Message `json:"messages"`
}

func (r *Message) fromCSV(c *csvCells) {
	r.City, r.Country, r.ID, r.Lang = c.str(), c.str(), c.int(), c.str()
	r.Message, r.Name, r.Rating = c.str(), c.str(), c.int()
}

// locale holds names, cities and messages written in one language. A
// name is a first name and a last name joined with a space, or a whole
// name where last is empty.
type locale struct {
	lang, country   string
	first, last     []string
	cities, message []string
}

var locales = []locale{
	{"de", "DE", []string{"Jürgen", "Günther", "Björn", "Käthe", "Lena", "Sören", "Maximilian"}, []string{"Müller", "Schäfer", "Groß", "Weiß", "Köhler", "Bäcker"},
		[]string{"München", "Köln", "Düsseldorf", "Nürnberg", "Lübeck", "Würzburg"},
		[]string{"Vielen Dank für die schnelle Lieferung!", "Können Sie mir bitte die Rechnung schicken?", "Die Größe passt leider nicht, ich möchte umtauschen.", "Grüße aus München 🍺", "Funktioniert einwandfrei."}},
	{"pl", "PL", []string{"Łukasz", "Małgorzata", "Paweł", "Wojciech", "Zofia", "Krzysztof"}, []string{"Wiśniewski", "Wójcik", "Kowalczyk", "Dąbrowski", "Zieliński", "Sikorska"},
		[]string{"Kraków", "Łódź", "Wrocław", "Gdańsk", "Poznań", "Białystok"},
		[]string{"Dziękuję, wszystko działa!", "Zamówienie jeszcze nie dotarło, proszę o informację.", "Świetna obsługa 👍", "Czy można zapłacić przelewem?"}},
	{"ru", "RU", []string{"Анна", "Дмитрий", "Сергей", "Ольга", "Наталья", "Алексей"}, []string{"Иванова", "Смирнов", "Кузнецов", "Попова", "Соколов", "Лебедева"},
		[]string{"Москва", "Санкт-Петербург", "Новосибирск", "Екатеринбург", "Казань"},
		[]string{"Спасибо за помощь!", "Когда будет доставка?", "Всё отлично, рекомендую 👍", "Не могу войти в аккаунт, пишет «неверный пароль»."}},
	{"zh", "CN", []string{"王芳", "李娜", "张伟", "刘洋", "陈静", "杨磊", "赵敏"}, nil,
		[]string{"北京", "上海", "广州", "深圳", "成都", "杭州"},
		[]string{"谢谢，已经收到了！", "请问什么时候发货？", "质量很好，下次还会再来 😊", "订单号错了，麻烦帮我改一下。"}},
	{"ja", "JP", []string{"佐藤", "鈴木", "高橋", "田中", "渡辺"}, []string{"健", "花子", "翔", "美咲", "大輔"},
		[]string{"東京", "大阪", "京都", "札幌", "福岡"},
		[]string{"ありがとうございます！", "配送状況を教えてください。", "とても使いやすいです 👍", "返品の手続きはどうすればいいですか？"}},
	{"ko", "KR", []string{"김민준", "이서연", "박지훈", "최수아", "정우진"}, nil,
		[]string{"서울", "부산", "인천", "대구"},
		[]string{"감사합니다!", "배송은 언제 되나요?", "정말 좋아요 😍", "환불 요청드립니다, 확인 부탁드려요."}},
	{"es", "ES", []string{"José", "María", "Sofía", "Andrés", "Lucía", "Íñigo"}, []string{"García", "Martínez", "Núñez", "Peña", "Gómez", "Ibáñez"},
		[]string{"Madrid", "Sevilla", "Málaga", "Córdoba", "A Coruña", "Cádiz"},
		[]string{"¡Muchas gracias por todo!", "¿Dónde está mi pedido?", "El producto llegó dañado, ¿qué hago?", "Perfecto, 10/10 🙌"}},
	{"fr", "FR", []string{"Inès", "Chloé", "Hélène", "François", "Benoît", "Zoé"}, []string{"Lefèvre", "Dubois", "Moreau", "Girard", "Bélanger", "Ménard"},
		[]string{"Paris", "Orléans", "Besançon", "Nîmes", "Saint-Étienne"},
		[]string{"Merci beaucoup, c'est parfait !", "Où en est ma commande ?", "Le colis est arrivé abîmé… que faire ?", "Très satisfaite 😊"}},
	{"tr", "TR", []string{"Çağla", "Şükrü", "Gökhan", "Ayşe", "İbrahim"}, []string{"Yılmaz", "Öztürk", "Şahin", "Çelik", "Doğan"},
		[]string{"İstanbul", "İzmir", "Ankara", "Eskişehir"},
		[]string{"Teşekkürler, çok hızlı geldi!", "Siparişim nerede?", "Ürün harika, tavsiye ederim."}},
	{"el", "GR", []string{"Γιώργος", "Μαρία", "Νίκος", "Ελένη"}, []string{"Παπαδόπουλος", "Οικονόμου", "Γεωργίου"},
		[]string{"Αθήνα", "Θεσσαλονίκη", "Πάτρα"},
		[]string{"Ευχαριστώ πολύ!", "Πότε θα έρθει η παραγγελία μου;", "Όλα τέλεια 👌"}},
	{"ar", "EG", []string{"محمد علي", "فاطمة حسن", "أحمد محمود", "مريم إبراهيم"}, nil,
		[]string{"القاهرة", "الإسكندرية", "الجيزة"},
		[]string{"شكراً جزيلاً!", "متى سيصل الطلب؟", "المنتج ممتاز، أنصح به."}},
	{"hi", "IN", []string{"अनन्या", "राहुल", "प्रिया", "अर्जुन"}, []string{"शर्मा", "वर्मा", "गुप्ता"},
		[]string{"मुंबई", "दिल्ली", "बेंगलुरु"},
		[]string{"धन्यवाद!", "मेरा ऑर्डर कब आएगा?", "बहुत अच्छा उत्पाद 👍"}},
	{"vi", "VN", []string{"Nguyễn Văn An", "Trần Thị Bích", "Lê Hoàng Nam", "Phạm Thu Hà"}, nil,
		[]string{"Hà Nội", "Thành phố Hồ Chí Minh", "Đà Nẵng", "Huế"},
		[]string{"Cảm ơn bạn rất nhiều!", "Khi nào đơn hàng của tôi được giao?", "Sản phẩm tốt, giao hàng nhanh."}},
	{"en", "US", first, last,
		[]string{"New York", "Chicago", "San Francisco", "Austin", "Seattle"},
		[]string{"Thanks, got it!", "Where is my order?", "Works great, would buy again 👍", "The package arrived damaged, please advise."}},
}

// international is a table of customer messages from many countries:
// names, cities and messages in accented Latin, Cyrillic, Greek, CJK,
// Hangul, Arabic and Devanagari script, with emoji, commas and quotes.
func international(n int) *Dataset {
	g := newGen(7)
	rows := make([]Message, n)
	for i := range rows {
		l := &locales[g.r.Intn(len(locales))]
		name := g.pick(l.first)
		if l.last != nil {
			name += " " + g.pick(l.last)
		}
		rows[i] = Message{
			ID:      100000 + i,
			Name:    name,
			City:    g.pick(l.cities),
			Country: l.country,
			Lang:    l.lang,
			Message: g.pick(l.message),
			Rating:  1 + g.r.Intn(5),
		}
	}
	return flatTable("intl", "customer messages in 14 languages: non-ASCII names, cities and messages with emoji, commas, quotes", "messages", 0,
		&IntlDoc{rows}, func(d *IntlDoc) []Message { return d.Messages }, (*Message).fromCSV)
}

// Shipment is a shipment line full of digit-leading and number-like
// strings.
type Shipment struct {
	Batch   string  `json:"batch"`   // zero-padded code: 007
	Date    string  `json:"date"`    // 2025-05-09
	Dims    string  `json:"dims"`    // 30x20x15
	EAN     string  `json:"ean"`     // 13 digits: a number to a naive reader
	ID      string  `json:"id"`      // 1000-AB
	IP      string  `json:"ip"`      // 10.0.12.7
	Phone   string  `json:"phone"`   // +1 555 0142
	Price   float64 `json:"price"`   // 12.5
	Qty     int     `json:"qty"`     // 3
	SKU     string  `json:"sku"`     // 12-3456-7
	Time    string  `json:"time"`    // 14:30
	Version string  `json:"version"` // 1.12.3
	Zip     string  `json:"zip"`     // 02134
}

// CodesDoc is the codes dataset.
type CodesDoc struct {
	Shipments []Shipment `json:"shipments"`
}

func (r *Shipment) fromCSV(c *csvCells) {
	r.Batch, r.Date, r.Dims, r.EAN, r.ID = c.str(), c.str(), c.str(), c.str(), c.str()
	r.IP, r.Phone, r.Price, r.Qty, r.SKU = c.str(), c.str(), c.float(), c.int(), c.str()
	r.Time, r.Version, r.Zip = c.str(), c.str(), c.str()
}

// codes is a table of shipments whose strings begin with digits or look
// like numbers: dates, versions, zero-padded codes (quoted in TOON, since
// they read as numbers), barcodes, phone numbers, IDs like 1000-AB, SKUs.
func codes(n int) *Dataset {
	g := newGen(8)
	phone := func() string {
		switch g.r.Intn(4) {
		case 0:
			return fmt.Sprintf("+1 555 %04d", g.r.Intn(10000))
		case 1:
			return fmt.Sprintf("+49 30 %07d", g.r.Intn(10000000))
		case 2:
			return fmt.Sprintf("030 %07d", g.r.Intn(10000000))
		}
		return fmt.Sprintf("+44 20 %04d %04d", g.r.Intn(10000), g.r.Intn(10000))
	}
	rows := make([]Shipment, n)
	for i := range rows {
		rows[i] = Shipment{
			ID:      fmt.Sprintf("%d-%c%c", 1000+i, 'A'+rune(g.r.Intn(26)), 'A'+rune(g.r.Intn(26))),
			Batch:   fmt.Sprintf("%03d", g.r.Intn(1000)),
			Date:    g.date(),
			Time:    fmt.Sprintf("%02d:%02d", g.r.Intn(24), 5*g.r.Intn(12)),
			Dims:    fmt.Sprintf("%dx%dx%d", 5+g.r.Intn(60), 5+g.r.Intn(40), 1+g.r.Intn(30)),
			EAN:     fmt.Sprintf("400%010d", g.r.Int63n(10_000_000_000)),
			IP:      fmt.Sprintf("10.%d.%d.%d", g.r.Intn(256), g.r.Intn(256), 1+g.r.Intn(254)),
			Phone:   phone(),
			Price:   g.money(300),
			Qty:     1 + g.r.Intn(20),
			SKU:     fmt.Sprintf("%02d-%04d-%d", g.r.Intn(100), g.r.Intn(10000), g.r.Intn(10)),
			Version: fmt.Sprintf("%d.%d.%d", g.r.Intn(3), g.r.Intn(30), g.r.Intn(20)),
			Zip:     fmt.Sprintf("%05d", g.r.Intn(100000)),
		}
	}
	return flatTable("codes", "shipments: dates, versions, zero-padded codes, barcodes, phone numbers, IDs like 1000-AB, SKUs", "shipments", 0,
		&CodesDoc{rows}, func(d *CodesDoc) []Shipment { return d.Shipments }, (*Shipment).fromCSV)
}

// Product is a row of a store's product export: 19 columns, most of the
// optional ones empty (empty strings, or null numbers).
type Product struct {
	Barcode      string   `json:"barcode"`
	Brand        string   `json:"brand"`
	Category     string   `json:"category"`
	Color        string   `json:"color"`
	Discontinued bool     `json:"discontinued"`
	ID           int      `json:"id"`
	Material     string   `json:"material"`
	Name         string   `json:"name"`
	Notes        string   `json:"notes"`
	Price        float64  `json:"price"`
	SalePrice    *float64 `json:"sale_price"`
	Size         string   `json:"size"`
	SKU          string   `json:"sku"`
	Stock        int      `json:"stock"`
	Subcategory  string   `json:"subcategory"`
	Supplier     string   `json:"supplier"`
	Updated      string   `json:"updated"`
	Warehouse    string   `json:"warehouse"`
	WeightG      *float64 `json:"weight_g"`
}

// StoreDoc is the store dataset.
type StoreDoc struct {
	Products []Product `json:"products"`
}

func (r *Product) fromCSV(c *csvCells) {
	r.Barcode, r.Brand, r.Category, r.Color, r.Discontinued = c.str(), c.str(), c.str(), c.str(), c.bool()
	r.ID, r.Material, r.Name, r.Notes, r.Price = c.int(), c.str(), c.str(), c.str(), c.float()
	r.SalePrice, r.Size, r.SKU, r.Stock, r.Subcategory = c.optFloat(), c.str(), c.str(), c.int(), c.str()
	r.Supplier, r.Updated, r.Warehouse, r.WeightG = c.str(), c.str(), c.str(), c.optFloat()
}

// store is a sparse, wide, tab-delimited product export: 19 columns, of
// which most optional text cells are empty strings and most optional
// numbers null.
func store(n int) *Dataset {
	g := newGen(9)
	brands := []string{"Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark"}
	categories := []string{"Kitchen", "Garden", "Office", "Toys", "Sports", "Tools", "Apparel"}
	colors := []string{"black", "white", "red", "navy", "olive", "grey"}
	materials := []string{"steel", "cotton", "oak", "polyester", "glass", "ceramic"}
	sizes := []string{"S", "M", "L", "XL", "one size", "42", "10.5"}
	opt := func(p int, s string) string {
		if g.chance(p) {
			return s
		}
		return ""
	}
	optNum := func(p int, v float64) *float64 {
		if g.chance(p) {
			return &v
		}
		return nil
	}
	rows := make([]Product, n)
	for i := range rows {
		price := g.money(400)
		name := g.pick(words)
		rows[i] = Product{
			ID:           500000 + i,
			SKU:          fmt.Sprintf("ST-%06d", g.r.Intn(1000000)),
			Name:         strings.ToUpper(name[:1]) + name[1:] + " " + g.pick(words),
			Brand:        opt(80, g.pick(brands)),
			Category:     g.pick(categories),
			Subcategory:  opt(50, g.pick(words)),
			Color:        opt(45, g.pick(colors)),
			Size:         opt(35, g.pick(sizes)),
			Material:     opt(30, g.pick(materials)),
			WeightG:      optNum(50, float64(10+g.r.Intn(20000))),
			Price:        price,
			SalePrice:    optNum(20, math.Round(price*80)/100),
			Stock:        g.r.Intn(500),
			Warehouse:    opt(60, fmt.Sprintf("WH-%d", 1+g.r.Intn(9))),
			Barcode:      opt(40, strconv.FormatInt(4_000_000_000_000+g.r.Int63n(999_999_999_999), 10)),
			Supplier:     opt(30, g.pick(brands)+" Supply"),
			Notes:        opt(10, g.sentence(8)),
			Discontinued: g.chance(5),
			Updated:      g.date(),
		}
	}
	return flatTable("store", "sparse product export, tab-delimited: 19 columns, most optional cells empty strings or null", "products", toon.Tab,
		&StoreDoc{rows}, func(d *StoreDoc) []Product { return d.Products }, (*Product).fromCSV)
}

// Ticket is a support ticket with a long multi-line body.
type Ticket struct {
	Author    string    `json:"author"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
	ID        int       `json:"id"`
	Priority  string    `json:"priority"`
	Status    string    `json:"status"`
	Subject   string    `json:"subject"`
	Tags      string    `json:"tags"`
}

// TicketsDoc is the tickets dataset.
type TicketsDoc struct {
	Tickets []Ticket `json:"tickets"`
}

func (r *Ticket) fromCSV(c *csvCells) {
	r.Author, r.Body, r.CreatedAt, r.ID = c.str(), c.str(), c.time(), c.int()
	r.Priority, r.Status, r.Subject, r.Tags = c.str(), c.str(), c.str(), c.str()
}

// tickets is a table of support tickets whose bodies are long free text
// with commas, quotes, tabs, backslashes and newlines, all escaped in
// TOON's quoted strings.
func tickets(n int) *Dataset {
	g := newGen(10)
	subjects := []string{`Login fails with "invalid token"`, "Export to CSV, then import: columns shift", `Can't open C:\Users\dev\report.xlsx`, "Billing: charged twice", "Feature request: dark mode", `Error "E1042" on save`}
	snippets := []string{
		"Steps to reproduce:\n1. Open the app\n2. Click \"Export\"\n3. Choose CSV, UTF-8",
		"Log:\n\t2025-05-09 14:30:01 ERROR db: connection refused\n\t2025-05-09 14:30:02 WARN retrying (1/3)",
		"Path: C:\\Program Files\\Acme\\config.ini, line 12",
		"Expected: \"OK\"\nActual:   \"Error: timeout, please retry\"",
		"Config:\n\t{\"retries\": 3, \"timeout\": \"30s\"}",
	}
	rows := make([]Ticket, n)
	for i := range rows {
		var b strings.Builder
		b.WriteString("Hi team,\n\n")
		for p := 0; p < 1+g.r.Intn(3); p++ {
			b.WriteString(g.sentence(10 + g.r.Intn(25)))
			b.WriteString("\n\n")
			if g.chance(60) {
				b.WriteString(g.pick(snippets))
				b.WriteString("\n\n")
			}
		}
		b.WriteString("Thanks,\n")
		author := g.pick(first) + " " + g.pick(last)
		b.WriteString(author)
		rows[i] = Ticket{
			ID:        70000 + i,
			CreatedAt: g.instant(),
			Author:    author,
			Subject:   g.pick(subjects),
			Body:      b.String(),
			Status:    []string{"open", "pending", "solved", "closed"}[g.r.Intn(4)],
			Priority:  []string{"low", "normal", "high", "urgent"}[g.r.Intn(4)],
			Tags:      g.pick(words) + "," + g.pick(words),
		}
	}
	return flatTable("tickets", "support tickets: long multi-line bodies with commas, quotes, tabs, backslashes (escaped in TOON)", "tickets", 0,
		&TicketsDoc{rows}, func(d *TicketsDoc) []Ticket { return d.Tickets }, (*Ticket).fromCSV)
}

// Sample is a row of numeric telemetry.
type Sample struct {
	Bytes     int64   `json:"bytes"`      // up to 2^53
	CPU       float64 `json:"cpu"`        // 0–100, two decimals
	Delta     float64 `json:"delta"`      // negative or positive, three decimals
	Energy    float64 `json:"energy"`     // 1e18–1e24 joules: often ≥ 1e21, written with an exponent
	ErrorRate float64 `json:"error_rate"` // 1e-9–1e-3: often < 1e-6, written with an exponent
	HostID    int64   `json:"host_id"`    // sixteen digits
	Lat       float64 `json:"lat"`
	Latency   float64 `json:"latency_ms"`
	Lon       float64 `json:"lon"`
	Score     float64 `json:"score"` // a computed value: all 17 significant digits
	Seq       int     `json:"seq"`
	Temp      float64 `json:"temp_c"` // −40 to 45, one decimal
	TS        int64   `json:"ts"`     // Unix milliseconds
}

// MetricsDoc is the metrics dataset.
type MetricsDoc struct {
	Samples []Sample `json:"samples"`
}

func (r *Sample) fromCSV(c *csvCells) {
	r.Bytes, r.CPU, r.Delta, r.Energy, r.ErrorRate = c.int64(), c.float(), c.float(), c.float(), c.float()
	r.HostID, r.Lat, r.Latency, r.Lon, r.Score = c.int64(), c.float(), c.float(), c.float(), c.float()
	r.Seq, r.Temp, r.TS = c.int(), c.float(), c.int64()
}

// metrics is a numeric-heavy telemetry table: negative numbers, floats of
// every length, exponents at both ends of the range, large integers.
func metrics(n int) *Dataset {
	g := newGen(11)
	rows := make([]Sample, n)
	ts := epoch.UnixMilli()
	for i := range rows {
		ts += int64(g.r.Intn(2000))
		rows[i] = Sample{
			Seq:       i,
			TS:        ts,
			HostID:    1_000_000_000_000_000 + g.r.Int63n(8_000_000_000_000_000),
			CPU:       g.money(100),
			Temp:      float64(g.r.Intn(850)-400) / 10,
			Delta:     float64(g.r.Intn(25001)-12500) / 1000,
			Latency:   math.Round(g.r.ExpFloat64()*20000) / 1000,
			Bytes:     g.r.Int63n(1 << 53),
			ErrorRate: g.sci(9999, -13, 7),
			Energy:    g.sci(999, 16, 7),
			Lat:       float64(g.r.Intn(180_000_000)-90_000_000) / 1e6,
			Lon:       float64(g.r.Intn(360_000_000)-180_000_000) / 1e6,
			Score:     g.r.NormFloat64(),
		}
	}
	return flatTable("metrics", "numeric telemetry: negative numbers, full-precision floats, exponents (1e-7, 1e+21), 16-digit integers", "samples", 0,
		&MetricsDoc{rows}, func(d *MetricsDoc) []Sample { return d.Samples }, (*Sample).fromCSV)
}

// sci returns m·10^e for a mantissa m in [1, maxM] and an exponent e in
// [e0, e0+spread), as the short decimal a program would log (3.7e-9, not
// the product's rounding error).
func (g *gen) sci(maxM, e0, spread int) float64 {
	v, err := strconv.ParseFloat(fmt.Sprintf("%de%d", 1+g.r.Intn(maxM), e0+g.r.Intn(spread)), 64)
	if err != nil {
		panic(err)
	}
	return v
}

// Edge is an edge of a social graph.
type Edge struct {
	Dst    int     `json:"dst"`
	Kind   string  `json:"kind"`
	Src    int     `json:"src"`
	Weight float64 `json:"weight"`
}

// EdgesDoc is the edges dataset.
type EdgesDoc struct {
	Edges []Edge `json:"edges"`
}

func (r *Edge) fromCSV(c *csvCells) {
	r.Dst, r.Kind, r.Src, r.Weight = c.int(), c.str(), c.int(), c.float()
}

// edges is a narrow table of short rows (four small cells), where the
// cost per row outweighs the cost per byte.
func edges(n int) *Dataset {
	g := newGen(12)
	kinds := []string{"follows", "likes", "blocks", "mentions"}
	rows := make([]Edge, n)
	for i := range rows {
		rows[i] = Edge{Src: g.r.Intn(n / 2), Dst: g.r.Intn(n / 2), Kind: g.pick(kinds), Weight: g.ratio()}
	}
	return flatTable("edges", "graph edges: a narrow table of four short cells a row", "edges", 0,
		&EdgesDoc{rows}, func(d *EdgesDoc) []Edge { return d.Edges }, (*Edge).fromCSV)
}
