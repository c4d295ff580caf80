SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = ANY($1) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."price" AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS double precision) AND "t0"."price" <= CAST($2 AS double precision)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."price" <> CAST($1 AS double precision) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."sku" AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."sku" LIKE CAST($1 AS text) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."name" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."name" ILIKE CAST($1 AS text) LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."name" ~ CAST($1 AS text) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."name" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."email" IS NULL LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0, "t0"."note" AS c1 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE "t0"."note" IS NOT NULL ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."sku" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE "t0"."in_stock" = CAST($1 AS boolean) LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0, CASE WHEN "t0"."ordered_at" IS NULL THEN NULL WHEN extract(microseconds FROM "t0"."ordered_at")::bigint % 1000000 = 0 THEN to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS') || 'Z' ELSE to_char(("t0"."ordered_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.US') || 'Z' END AS c1 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE ("t0"."ordered_at" >= CAST($1 AS timestamptz) AND "t0"."ordered_at" < CAST($2 AS timestamptz)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, to_json("t0"."ship_date") AS c1 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE "t0"."ship_date" <= CAST($1 AS date) LIMIT 2000) AS "t0";
