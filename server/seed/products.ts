import { CATALOGUE, type ProductNumber } from "../../src/domain/catalogue.ts";

/** A line item of a product from the price list (src/domain/catalogue.ts, also shown on /products). */
export function line(productNumber: ProductNumber, quantity: number, discount: string | null = null) {
  const { description, listPrice } = CATALOGUE[productNumber];
  return { productNumber, description, listPrice, quantity, discount };
}
