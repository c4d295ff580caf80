CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL, sku text NOT NULL, total double precision NOT NULL, status text NOT NULL);
CREATE INDEX ON orders (customer_id);
INSERT INTO orders VALUES (10, 1, 'BK-1', 50, 'paid'), (11, 1, 'HW-9', 150, 'paid'), (12, 2, 'BK-1', 300, 'pending'), (13, 3, 'HW-9', 20, 'paid'), (14, 4, 'BK-2', 80, 'paid');
