SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'size', "t0"."size") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE (CASE WHEN jsonb_typeof(("t0"."size")::jsonb #> $1::text[]) = 'number' THEN (("t0"."size")::jsonb #>> $1::text[])::double precision END) > CAST($2 AS double precision) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ((CASE WHEN jsonb_typeof(("t0"."size")::jsonb #> $1::text[]) = 'number' THEN (("t0"."size")::jsonb #>> $1::text[])::double precision END) <= CAST($2 AS double precision) AND (("t0"."size")::jsonb #>> $3::text[]) = $4) LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'size', "t0"."size")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE CAST((("t0"."size")::jsonb #>> $1::text[]) AS date) < CAST($2 AS date) LIMIT 2000) AS "t0";
