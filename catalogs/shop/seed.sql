-- Seed data for the example shop; run once, when data/shop.duckdb is created.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR, country VARCHAR, created_at TIMESTAMPTZ);
CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, parent_id INTEGER);
CREATE TABLE products (id INTEGER PRIMARY KEY, sku VARCHAR NOT NULL UNIQUE, name VARCHAR NOT NULL, price DOUBLE NOT NULL, in_stock BOOLEAN, attributes JSON, category_id INTEGER, size JSON);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers (id), status VARCHAR NOT NULL, ordered_at TIMESTAMPTZ NOT NULL, ship_date DATE, note VARCHAR);
CREATE TABLE order_items (order_id INTEGER NOT NULL, line INTEGER NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER NOT NULL CHECK (quantity > 0), unit_price DOUBLE NOT NULL, PRIMARY KEY (order_id, line));
CREATE TABLE tags (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
-- Geometry columns are VARCHAR on DuckDB (no spatial extension offline): WKT, EWKT, GeoJSON or hex WKB.
CREATE TABLE stores (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, country VARCHAR, location VARCHAR, delivery_area VARCHAR);
CREATE TABLE product_tags (product_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, PRIMARY KEY (product_id, tag_id));

INSERT INTO customers VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 'GB', '2024-01-05 10:00:00+00'),
  (2, 'Alan Turing', 'alan@example.com', 'GB', '2024-02-11 09:30:00+00'),
  (3, 'Grace Hopper', 'grace@example.com', 'US', '2024-03-20 15:45:00+00'),
  (4, 'Edsger Dijkstra', NULL, 'NL', '2024-04-01 08:00:00+00');
INSERT INTO categories VALUES (1, 'Books', NULL), (2, 'Computing', 1), (3, 'Hardware', NULL);
INSERT INTO products VALUES
  (1, 'BK-001', 'The Art of Programming', 49.5, true, '{"pages": 650, "cover": "hard"}', 2, NULL),
  (2, 'BK-002', 'Notes on Structured Programming', 19.0, true, '{"pages": 220, "cover": "soft"}', 2, NULL),
  (3, 'HW-001', 'Mechanical Keyboard', 120.0, false, '{"switch": "brown"}', 3, '{"width": 44.5, "height": 3.5, "unit": "cm"}'),
  (4, 'HW-002', 'Difference Engine Model', 899.99, true, NULL, 3, '{"width": 120, "height": 80, "unit": "cm", "made": "1991-11-29"}');
INSERT INTO orders VALUES
  (1, 1, 'shipped', '2025-03-01 12:00:00+00', '2025-03-03', NULL),
  (2, 1, 'pending', '2025-03-15 09:00:00+00', NULL, 'gift wrap'),
  (3, 2, 'shipped', '2025-02-20 17:30:00+00', '2025-02-22', NULL),
  (4, 3, 'cancelled', '2025-01-10 08:15:00+00', NULL, 'customer request');
INSERT INTO order_items VALUES
  (1, 1, 1, 1, 49.5), (1, 2, 2, 2, 19.0),
  (2, 1, 3, 1, 120.0),
  (3, 1, 4, 1, 899.99), (3, 2, 2, 1, 19.0),
  (4, 1, 1, 3, 49.5);
INSERT INTO tags VALUES (1, 'classic'), (2, 'bestseller'), (3, 'gadget');
INSERT INTO stores VALUES
  (1, 'Camden', 'GB', 'POINT(1 1)', 'POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))'),
  (2, 'Leith', 'GB', 'POINT(10 10)', 'POLYGON((8 8, 12 8, 12 12, 8 12, 8 8))'),
  (3, 'Delft', 'NL', 'POINT(3 3)', 'POLYGON((2 2, 6 2, 6 6, 2 6, 2 2))'),
  (4, 'Online', NULL, NULL, NULL);
INSERT INTO product_tags VALUES (1, 1), (1, 2), (2, 1), (3, 3), (4, 1), (4, 3);

CREATE VIEW customer_revenue AS
  SELECT o.customer_id, count(DISTINCT o.id) AS orders_count, sum(i.quantity * i.unit_price) AS revenue
  FROM orders o JOIN order_items i ON i.order_id = o.id
  WHERE o.status <> 'cancelled'
  GROUP BY o.customer_id;
