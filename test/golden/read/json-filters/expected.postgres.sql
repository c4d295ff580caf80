SELECT "t0"."id" AS c0, to_json("t0"."attributes") AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE jsonb_exists(("t0"."attributes")::jsonb, CAST($1 AS text)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE (jsonb_exists(("t0"."attributes")::jsonb, CAST($1 AS text)) AND jsonb_exists(("t0"."attributes")::jsonb, CAST($2 AS text))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."attributes")::jsonb @> (CAST($1 AS jsonb))::jsonb LIMIT 2000) AS "t0";
