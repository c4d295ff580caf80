SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."categories" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT json_build_object('name', "t0"."name") AS result FROM "public"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
