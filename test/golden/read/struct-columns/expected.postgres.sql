SELECT "t0"."id" AS c0, to_json("t0"."size") AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE (CASE WHEN jsonb_typeof(("t0"."size")::jsonb #> $1::text[]) = 'number' THEN (("t0"."size")::jsonb #>> $1::text[])::double precision END) > CAST($2 AS double precision) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ((CASE WHEN jsonb_typeof(("t0"."size")::jsonb #> $1::text[]) = 'number' THEN (("t0"."size")::jsonb #>> $1::text[])::double precision END) <= CAST($2 AS double precision) AND (("t0"."size")::jsonb #>> $3::text[]) = $4) LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0, to_json("t0"."size") AS c1 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE CAST((("t0"."size")::jsonb #>> $1::text[]) AS date) < CAST($2 AS date) LIMIT 2000) AS "t0";
