CREATE SEQUENCE orders_id_seq START 100;
CREATE SEQUENCE order_details_id_seq START 100;
CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR NOT NULL, country VARCHAR, phone VARCHAR, city VARCHAR);
INSERT INTO customers VALUES (1, 'Alfreds', 'a@example.com', 'Germany', '030-1', 'Berlin'), (2, 'Bottom Dollar', 'b@example.com', 'Canada', NULL, 'Tsawassen'),
  (3, 'Chop-suey', 'c@example.com', 'Switzerland', '041-3', 'Bern'), (4, 'Du monde', 'd@example.com', 'France', NULL, 'Nantes');
CREATE TABLE employees (id BIGINT PRIMARY KEY, first_name VARCHAR NOT NULL, last_name VARCHAR NOT NULL, salary DOUBLE, hire_date TIMESTAMPTZ, manager_id BIGINT);
INSERT INTO employees VALUES (1, 'Nancy', 'Davolio', 900, '2020-05-01 00:00:00+00', 2), (2, 'Andrew', 'Fuller', 1500, '2019-08-14 00:00:00+00', NULL),
  (3, 'Janet', 'Leverling', 800, '2021-04-01 00:00:00+00', 1);
CREATE TABLE shippers (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL);
INSERT INTO shippers VALUES (1, 'Speedy'), (2, 'United');
CREATE TABLE suppliers (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, country VARCHAR);
INSERT INTO suppliers VALUES (1, 'Exotic Liquids', 'UK'), (2, 'Tokyo Traders', 'Japan');
CREATE TABLE categories (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, description VARCHAR);
INSERT INTO categories VALUES (1, 'Beverages', 'Soft drinks, coffees, teas'), (2, 'Condiments', 'Sweet and savory sauces'), (3, 'Seafood', 'Fish');
CREATE TABLE products (id BIGINT PRIMARY KEY, sku VARCHAR NOT NULL, name VARCHAR NOT NULL, price DOUBLE NOT NULL, in_stock BOOLEAN, category_id BIGINT, currency VARCHAR);
INSERT INTO products VALUES (1, 'CHAI', 'Chai', 18, true, 1, 'USD'), (2, 'CHANG', 'Chang', 19, false, 1, 'USD'), (3, 'SYRUP', 'Aniseed Syrup', 10, true, 2, 'EUR'), (4, 'IKURA', 'Ikura', 31, NULL, 3, 'USD');
CREATE TABLE rates (from_currency VARCHAR, to_currency VARCHAR, rate DOUBLE);
INSERT INTO rates VALUES ('USD', 'EUR', 0.5), ('EUR', 'EUR', 1), ('USD', 'USD', 1), ('EUR', 'USD', 2);
CREATE TABLE product_categories (category_id BIGINT, product_id BIGINT, PRIMARY KEY (category_id, product_id));
INSERT INTO product_categories VALUES (1, 1), (1, 2), (2, 3), (3, 4), (2, 1);
CREATE TABLE supplier_products (supplier_id BIGINT, product_id BIGINT, price DOUBLE NOT NULL, PRIMARY KEY (supplier_id, product_id));
INSERT INTO supplier_products VALUES (1, 1, 15), (1, 2, 16), (1, 3, 8), (2, 4, 25), (2, 1, 14);
CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, employee_id BIGINT, ship_via BIGINT, status VARCHAR NOT NULL, order_date TIMESTAMPTZ, shipped_date TIMESTAMPTZ, freight DOUBLE, total DOUBLE, metadata JSON);
INSERT INTO orders VALUES
  (1, 1, 1, 1, 'completed', '2024-01-05 10:00:00+00', '2024-01-07 09:00:00+00', 32.5, 225, '{"channel": "web", "score": 4, "gift": true, "tags": ["gift", "rush"], "details": {"amount": 10}}'),
  (2, 1, 2, 2, 'pending', '2024-02-11 12:00:00+00', NULL, 11.0, 38, '{"channel": "shop", "score": 2, "gift": false, "tags": ["rush"], "details": {"amount": 5}}'),
  (3, 2, 2, 1, 'completed', '2024-02-20 08:30:00+00', '2024-02-22 16:00:00+00', 65.8, 194.7, '{"channel": "web", "score": 5, "gift": false, "tags": [], "details": {"amount": 7}}'),
  (4, 3, 1, NULL, 'cancelled', '2024-03-02 15:45:00+00', NULL, NULL, 57, NULL);
CREATE TABLE order_details (id BIGINT PRIMARY KEY, order_id BIGINT NOT NULL, product_id BIGINT NOT NULL, supplier_id BIGINT NOT NULL, quantity INTEGER NOT NULL, unit_price DOUBLE NOT NULL, discount DOUBLE NOT NULL);
INSERT INTO order_details VALUES
  (1, 1, 1, 1, 10, 18, 0), (2, 1, 3, 1, 5, 10, 0.1),
  (3, 2, 2, 1, 2, 19, 0),
  (4, 3, 4, 2, 6, 31, 0.05), (5, 3, 1, 2, 1, 18, 0),
  (6, 4, 2, 1, 3, 19, 0);
CREATE TABLE stores (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, location VARCHAR, area VARCHAR, store_type VARCHAR, revenue DOUBLE);
INSERT INTO stores VALUES (1, 'Harbour', 'POINT(1 1)', 'POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))', 'outlet', 100), (2, 'Hill', 'POINT(10 10)', NULL, 'shop', 50),
  (3, 'Quay', 'POINT(1.5 1)', NULL, 'shop', 70), (4, 'Ridge', 'POINT(30 30)', NULL, 'outlet', 10);
CREATE TABLE zones (id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, priority VARCHAR, boundary VARCHAR);
INSERT INTO zones VALUES (1, 'South', 'high', 'POLYGON((0 0, 5 0, 5 5, 0 5, 0 0))'), (2, 'North', 'low', 'POLYGON((8 8, 12 8, 12 12, 8 12, 8 8))'),
  (3, 'Empty', 'low', 'POLYGON((20 20, 21 20, 21 21, 20 21, 20 20))'), (4, 'Strip', 'high', 'POLYGON((3 -1, 9 -1, 9 9, 3 9, 3 -1))');
CREATE TABLE documents (id BIGINT PRIMARY KEY, title VARCHAR NOT NULL, category VARCHAR, embedding FLOAT[]);
INSERT INTO documents VALUES (1, 'Intro to SQL', 'db', [1, 0, 0]), (2, 'Advanced SQL', 'db', [0.9, 0.1, 0]), (3, 'Cooking pasta', 'food', [0, 1, 0]),
  (4, 'Baking bread', 'food', [0, 0.8, 0.6]), (5, 'Graph theory', 'math', [0.5, 0, 0.5]), (6, 'Untitled', 'misc', NULL);
CREATE SEQUENCE members_id_seq START 10;
CREATE TABLE members (id BIGINT PRIMARY KEY, email VARCHAR NOT NULL, display_name VARCHAR NOT NULL, status VARCHAR NOT NULL, deleted_at TIMESTAMPTZ);
INSERT INTO members VALUES (1, 'ann@example.com', 'Ann', 'active', NULL), (2, 'ben@example.com', 'Ben', 'active', '2024-01-01 00:00:00+00');
CREATE VIEW v_customer_summary AS SELECT customer_id, CAST(count(*) AS INTEGER) AS total_orders, sum(total) AS total_spent, avg(total) AS avg_order_value FROM orders GROUP BY customer_id;
-- A table macro is bound where it is called (the engine's connection), so it names its table in full.
CREATE MACRO orders_of(cust) AS TABLE SELECT id, status FROM nw.main.orders WHERE customer_id = cust;
