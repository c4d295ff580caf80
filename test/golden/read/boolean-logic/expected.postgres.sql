SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS double precision) OR "t0"."sku" = $2) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS double precision) AND (NOT COALESCE("t0"."category_id" = CAST($2 AS integer), FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE ("t0"."customer_id" = CAST($1 AS integer) AND "t0"."status" = $2) LIMIT 2000) AS "t0";
