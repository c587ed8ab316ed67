import { DESIGNER } from "@agentfair/contracts";
import maplibregl, { type StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import { useEffect, useRef } from "react";
import type { MapPosition } from "./map-widget";

/**
 * The style used when none is configured: drawn from nothing but the positions, so the map
 * works offline (a configured style URL brings real tiles).
 */
export function offlineStyle(positions: MapPosition[]): StyleSpecification {
  return {
    version: 8,
    sources: {
      positions: {
        type: "geojson",
        data: {
          type: "FeatureCollection",
          features: positions.map((p) => ({
            type: "Feature",
            properties: { name: p.name ?? "" },
            geometry: { type: "Point", coordinates: [p.lng, p.lat] },
          })),
        },
      },
    },
    layers: [
      { id: "background", type: "background", paint: { "background-color": "#eef3f8" } },
      {
        id: "positions",
        type: "circle",
        source: "positions",
        paint: { "circle-radius": 7, "circle-color": "#1677ff", "circle-stroke-width": 2, "circle-stroke-color": "#fff" },
      },
    ],
  };
}

export default function MapView(props: {
  positions: MapPosition[];
  height: number;
  center?: [number, number];
  zoom?: number;
  styleUrl?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { positions, center, zoom, styleUrl } = props;
  const key = JSON.stringify([positions, center, zoom, styleUrl]);
  useEffect(() => {
    if (!box.current) return;
    let map: maplibregl.Map | undefined;
    try {
      map = new maplibregl.Map({
        container: box.current,
        style: styleUrl || offlineStyle(positions),
        center: center ?? (positions[0] ? [positions[0].lng, positions[0].lat] : DESIGNER.mapCenter),
        zoom: zoom ?? DESIGNER.mapZoom,
        minZoom: DESIGNER.mapMinZoom,
        maxZoom: DESIGNER.mapMaxZoom,
        pitch: DESIGNER.mapPitch,
        bearing: DESIGNER.mapBearing,
        attributionControl: false,
      });
      // §8: a failed load is only logged.
      map.on("error", (e) => console.error("map load failed", e.error ?? e));
      if (styleUrl)
        map.on("load", () => {
          for (const p of positions) new maplibregl.Marker().setLngLat([p.lng, p.lat]).addTo(map as maplibregl.Map);
        });
    } catch (err) {
      console.error("map load failed", err);
    }
    return () => map?.remove();
  }, [key]);
  return <div ref={box} style={{ width: "100%", height: props.height }} />;
}
