SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name", 'email': "t0"."email"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."country" = CAST($1 AS VARCHAR) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'__typename': CAST($2 AS VARCHAR), 'id': "t0"."id", 'name': "t0"."name"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."country" = CAST($1 AS VARCHAR) LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 1) AS "t0";
