SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."__svc_rn"), '[]'::json) AS result FROM (SELECT "t0".*, row_number() OVER (ORDER BY "t0"."id" ASC NULLS FIRST) AS "__svc_rn" FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC NULLS FIRST LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."__svc_rn"), '[]'::json) AS result FROM (SELECT "t0".*, row_number() OVER (ORDER BY "t0"."id" ASC NULLS FIRST) AS "__svc_rn" FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC NULLS FIRST LIMIT 2) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."__svc_rn"), '[]'::json) AS result FROM (SELECT "t0".*, row_number() OVER (ORDER BY "t0"."id" ASC NULLS FIRST) AS "__svc_rn" FROM "public"."categories" AS "t0" ORDER BY "t0"."id" ASC NULLS FIRST LIMIT 2000) AS "t0";

SELECT json_build_object('name', "t0"."name") AS result FROM "public"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
