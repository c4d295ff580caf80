-- Data for test/compat/schema-pages-a.test.ts (hugr's data-object pages: queries, mutations, aggregations, joins, function calls).
CREATE SEQUENCE customers_id_seq START 10;
CREATE SEQUENCE addresses_id_seq START 10;
CREATE SEQUENCE orders_id_seq START 100;
CREATE SEQUENCE order_details_id_seq START 100;
CREATE SEQUENCE products_id_seq START 10;
CREATE SEQUENCE order_number_seq START 5000;
CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR NOT NULL UNIQUE, status VARCHAR NOT NULL, city VARCHAR, country VARCHAR,
  age INTEGER, vip BOOLEAN, created_at TIMESTAMPTZ NOT NULL, updated_at TIMESTAMPTZ, deleted_at TIMESTAMPTZ);
INSERT INTO customers VALUES
  (1, 'Ada', 'ada@example.com', 'active', 'Boston', 'USA', 36, false, '2023-05-01T00:00:00Z', NULL, NULL),
  (2, 'Ben', 'ben@example.com', 'active', 'Austin', 'USA', 52, true, '2023-07-01T00:00:00Z', NULL, NULL),
  (3, 'Cleo', 'cleo@example.com', 'inactive', 'Boston', 'USA', 28, false, '2024-01-10T00:00:00Z', NULL, NULL),
  (4, 'Dario', 'dario@example.com', 'active', 'Rome', 'Italy', 44, true, '2024-02-01T00:00:00Z', NULL, NULL);
CREATE TABLE addresses (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, street VARCHAR, city VARCHAR, type VARCHAR);
CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
INSERT INTO categories VALUES (1, 'Books'), (2, 'Games');
CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DOUBLE NOT NULL, category_id INTEGER, status VARCHAR, stock_quantity INTEGER, discount DOUBLE);
INSERT INTO products VALUES (1, 'Atlas', 40, 1, 'active', 5, 0), (2, 'Chess', 25, 2, 'active', 0, 0.1), (3, 'Bridge', 60, 1, 'active', 2, 0.2), (4, 'Go', 30, 2, 'retired', 0, 0);
CREATE TABLE orders (id INTEGER PRIMARY KEY, order_number INTEGER NOT NULL, customer_id INTEGER NOT NULL, status VARCHAR NOT NULL, priority VARCHAR,
  total DOUBLE, order_date TIMESTAMPTZ, created_at TIMESTAMPTZ);
INSERT INTO orders VALUES
  (1, 1001, 1, 'completed', 'high', 120, '2024-01-05T10:00:00Z', '2024-01-05T10:00:00Z'),
  (2, 1002, 1, 'completed', 'low', 150, '2024-01-09T10:00:00Z', '2024-01-09T10:00:00Z'),
  (3, 1003, 2, 'pending', 'low', 80, '2024-02-03T10:00:00Z', '2024-02-03T10:00:00Z'),
  (4, 1004, 4, 'completed', 'low', 1500, '2024-02-20T10:00:00Z', '2024-02-20T10:00:00Z'),
  (5, 1005, 4, 'pending', 'high', 40, '2023-12-20T10:00:00Z', '2023-12-20T10:00:00Z');
CREATE TABLE order_details (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, product_id INTEGER NOT NULL, quantity INTEGER NOT NULL, unit_price DOUBLE NOT NULL);
INSERT INTO order_details VALUES (1, 1, 1, 3, 40), (2, 2, 3, 2, 60), (3, 2, 2, 1, 30), (4, 3, 2, 2, 40), (5, 4, 3, 25, 60), (6, 5, 1, 1, 40);
CREATE TABLE old_logs (created_at TIMESTAMPTZ, message VARCHAR);
INSERT INTO old_logs VALUES ('2022-06-01T00:00:00Z', 'a'), ('2022-12-31T00:00:00Z', 'b'), ('2024-01-01T00:00:00Z', 'c');
CREATE TABLE reviews (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL, rating INTEGER NOT NULL);
INSERT INTO reviews VALUES (1, 1, 5), (2, 1, 4), (3, 2, 3);
CREATE TABLE events (id INTEGER PRIMARY KEY, metadata JSON);
INSERT INTO events VALUES (1, '{"user_id": 1, "score": 10, "duration": 2, "tag": "a"}'), (2, '{"user_id": 2, "score": 5, "duration": 4, "tag": "b"}'), (3, '{"score": 1, "duration": 6, "tag": "a"}');
-- Geometry as WKT text (svc's DuckDB geometry functions read it; see test/compat/spatial.test.ts).
CREATE TABLE locations (id INTEGER PRIMARY KEY, area VARCHAR);
INSERT INTO locations VALUES (1, 'POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))'), (2, 'POLYGON((1 0, 2 0, 2 1, 1 1, 1 0))');
CREATE MACRO get_all_recommendations(cat) AS TABLE
  SELECT p.id AS product_id, r.id AS recommended_product_id, 1.0 / (1 + abs(p.price - r.price)) AS score
  FROM shop.main.products p JOIN shop.main.products r ON p.category_id = r.category_id AND p.id != r.id WHERE p.category_id = cat;
