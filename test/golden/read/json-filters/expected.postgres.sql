SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'attributes', "t0"."attributes") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE jsonb_exists(("t0"."attributes")::jsonb, CAST($1 AS text)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE (jsonb_exists(("t0"."attributes")::jsonb, CAST($1 AS text)) AND jsonb_exists(("t0"."attributes")::jsonb, CAST($2 AS text))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE ("t0"."attributes")::jsonb @> (CAST($1 AS jsonb))::jsonb LIMIT 2000) AS "t0";
