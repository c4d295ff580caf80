INSERT INTO "shop"."main"."tags" ("id", "name") VALUES (CAST($1 AS INTEGER), CAST($2 AS VARCHAR)) RETURNING "id", "name";

SELECT to_json({'id': "t0"."id"}) AS result FROM "shop"."main"."tags" AS "t0" WHERE "t0"."id" = CAST($1 AS INTEGER) LIMIT 1;
