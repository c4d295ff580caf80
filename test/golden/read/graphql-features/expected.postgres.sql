SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name", 'email', "t0"."email") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('__typename', CAST($2 AS text), 'id', "t0"."id", 'name', "t0"."name")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 1) AS "t0";
