import { DESIGNER } from "@agentfair/contracts";
import { lazy, Suspense } from "react";

export interface MapPosition {
  lng: number;
  lat: number;
  name?: string;
}

const MapView = lazy(() => import("./map-view"));

/** The map widget: MapLibre GL (loaded with the first map), 350 px high by default. */
export function MapWidget(props: {
  positions: MapPosition[];
  height?: number;
  center?: [number, number];
  zoom?: number;
  styleUrl?: string;
}) {
  const height = props.height || DESIGNER.mapHeight;
  return (
    <div className="dz-map-box" style={{ height }} data-testid="designer-map">
      <Suspense fallback={null}>
        <MapView {...props} height={height} />
      </Suspense>
    </div>
  );
}
