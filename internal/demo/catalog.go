package demo

// product is one item of the demo catalogue.
type product struct {
	ID          int
	Name        string
	PriceCents  int
	Description string
}

// catalog holds 24 products with IDs 1 to 24, in list order. It never
// changes, so it needs no lock.
var catalog = []product{
	{1, "Trail Mug", 1450, "Enamel camping mug, 350 ml, with a rolled rim."},
	{2, "Linen Apron", 3200, "Heavy washed linen apron with two front pockets."},
	{3, "Desk Lamp", 5900, "Adjustable steel lamp with a warm 2700 K bulb."},
	{4, "Notebook A5", 1200, "Dot-grid notebook, 160 pages, lay-flat binding."},
	{5, "Fountain Pen", 4800, "Medium nib, converter included, blue ink."},
	{6, "Wool Socks", 1800, "Merino blend hiking socks, one pair."},
	{7, "Canvas Tote", 2200, "Sturdy cotton canvas bag with a zip pocket."},
	{8, "Water Bottle", 2600, "Insulated steel bottle, keeps drinks cold 24 h."},
	{9, "Tea Sampler", 1900, "Six loose-leaf teas in resealable tins."},
	{10, "Pour-over Kettle", 6400, "Gooseneck kettle for precise pouring, 1 l."},
	{11, "Ceramic Bowl", 2100, "Hand-glazed stoneware bowl, dishwasher safe."},
	{12, "Chef Knife", 8900, "20 cm carbon steel blade with an oak handle."},
	{13, "Cutting Board", 3500, "End-grain walnut board, 40 × 30 cm."},
	{14, "Picnic Blanket", 4500, "Water-resistant backing, folds into a strap."},
	{15, "Rain Jacket", 12900, "Packable shell with taped seams and a hood."},
	{16, "Beanie", 2400, "Ribbed knit hat in recycled wool."},
	{17, "Headphones", 9900, "Over-ear wireless headphones, 30 h battery."},
	{18, "Phone Stand", 1600, "Folding aluminium stand for phones and tablets."},
	{19, "Plant Pot", 2800, "Terracotta pot with a drainage saucer, 18 cm."},
	{20, "Candle Set", 2000, "Three soy candles: cedar, fig and smoke."},
	{21, "Board Game", 3900, "A cooperative game for two to five players."},
	{22, "Puzzle 1000", 2500, "A 1000-piece puzzle of an alpine lake."},
	{23, "Yoga Mat", 4200, "Natural rubber mat, 4 mm, non-slip."},
	{24, "Bike Light", 3300, "USB-rechargeable front and rear lights."},
}

// productsPerPage is the page size of /products.
const productsPerPage = 8

func findProduct(id int) (product, bool) {
	if id < 1 || id > len(catalog) {
		return product{}, false
	}
	return catalog[id-1], true
}
